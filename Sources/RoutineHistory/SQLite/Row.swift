import CSQLite

/// A row copied out of a statement: its columns' names and values.
struct Row: Hashable, Sendable, CustomStringConvertible {
    let columnNames: [String]
    let values: [DatabaseValue]

    /// The row `statement` is on.
    init(_ statement: OpaquePointer) {
        let count = sqlite3_column_count(statement)
        columnNames = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        values = (0..<count).map { DatabaseValue(statement, $0) }
    }

    /// Column `index` as `Value`; an optional type reads NULL as nil. A value that is not of
    /// that type is a programming error, as a wrong column would be.
    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        guard let value = Value.fromDatabaseValue(values[index]) else {
            fatalError("column \(index) holds \(values[index]), which is not a \(Value.self)")
        }
        return value
    }

    /// The leftmost column named `name` (in any case), as ``subscript(_:)-(Int)`` reads it.
    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        let lowered = name.lowercased()
        guard let index = columnNames.firstIndex(where: { $0.lowercased() == lowered }) else { fatalError("no column \(name)") }
        return self[index]
    }

    var description: String {
        "[" + zip(columnNames, values).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Row? {
        try statement.withFirstRow(arguments: arguments) { Row($0) }
    }

    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try db.makeStatement(sql: sql).forEachRow(arguments: arguments) { rows.append(Row($0)) }
        return rows
    }

    /// The rows one at a time, for a result too large to hold at once.
    static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return RowCursor(statement)
    }
}

/// The rows of a statement, stepped through on demand with ``next()``.
final class RowCursor {
    private let statement: Statement
    private var done = false

    init(_ statement: Statement) { self.statement = statement }

    deinit { sqlite3_reset(statement.sqliteStatement) }

    /// The next row; nil after the last.
    func next() throws -> Row? {
        if done { return nil }
        let code = sqlite3_step(statement.sqliteStatement)
        if code == SQLITE_ROW { return Row(statement.sqliteStatement) }
        done = true
        sqlite3_reset(statement.sqliteStatement)
        if code == SQLITE_DONE { return nil }
        throw statement.error(code)
    }
}

extension DatabaseValueConvertible {
    /// The first column of the first row; nil when there is no row, or it holds NULL.
    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Self? {
        let value = try statement.withFirstRow(arguments: arguments) { raw -> Self?? in
            if sqlite3_column_type(raw, 0) == SQLITE_NULL { return .some(nil) }
            return fromStatement(raw, 0).map { .some($0) }
        }
        guard let value else { return nil }
        guard let value else { throw undecodable(statement) }
        return value
    }

    /// The first column of every row.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        let statement = try db.makeStatement(sql: sql)
        var values: [Self] = []
        try statement.forEachRow(arguments: arguments) { raw in
            guard sqlite3_column_type(raw, 0) != SQLITE_NULL, let value = fromStatement(raw, 0) else { throw undecodable(statement) }
            values.append(value)
        }
        return values
    }

    private static func undecodable(_ statement: Statement) -> DatabaseError {
        DatabaseError(resultCode: .mismatch, message: "a value of the first column is not a \(Self.self)", sql: statement.sql)
    }
}
