import CSQLite

/// A row of a query: either the row a statement is on, read in place while the body it is
/// handed to runs (``Database/forEachRow(_:arguments:cached:_:)``), or a copy of its columns'
/// names and values that outlives the statement (`fetchOne`, `fetchAll`, ``RowCursor``,
/// ``copy()``). Both are read the same way: by column index with ``int64(_:)``, ``text(_:)``
/// and their siblings, which take SQLite's own conversions and read NULL as 0 or nil, or
/// with the subscripts, which decode a ``DatabaseValueConvertible`` and trap on a value of
/// another type. A row in place decodes straight from the statement
/// (``DatabaseValueConvertible/fromStatement(_:_:)``): ten years of steps are read without a
/// copy per row.
struct Row: Hashable, CustomStringConvertible {
    /// The statement the row is in place on; nil for a copy.
    private let statement: OpaquePointer?
    /// The columns of a copy; nil for a row in place.
    private let copied: Copied?

    private final class Copied: Sendable {
        let columnNames: [String]
        let values: [DatabaseValue]

        init(columnNames: [String], values: [DatabaseValue]) {
            self.columnNames = columnNames
            self.values = values
        }
    }

    /// The row `statement` is on, in place: valid until the statement moves on.
    init(inPlace statement: OpaquePointer) {
        self.statement = statement
        copied = nil
    }

    /// A copy of the row `statement` is on.
    init(copying statement: OpaquePointer) {
        let count = sqlite3_column_count(statement)
        copied = Copied(
            columnNames: (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) },
            values: (0..<count).map { DatabaseValue(statement, $0) })
        self.statement = nil
    }

    /// A copy of this row, which outlives its statement.
    func copy() -> Row {
        guard let statement else { return self }
        return Row(copying: statement)
    }

    /// The columns' names, in order.
    var columnNames: [String] {
        if let copied { return copied.columnNames }
        return (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    /// The columns' values, in order.
    var values: [DatabaseValue] {
        if let copied { return copied.values }
        return (0..<sqlite3_column_count(statement)).map { DatabaseValue(statement!, $0) }
    }

    /// Whether column `index` is NULL.
    @inline(__always)
    func isNull(_ index: Int) -> Bool {
        guard let statement else { return copied!.values[index].isNull }
        return sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` as an integer: NULL reads as 0, a double is truncated.
    @inline(__always)
    func int64(_ index: Int) -> Int64 {
        guard let statement else { return Int64.fromDatabaseValue(copied!.values[index]) ?? 0 }
        return sqlite3_column_int64(statement, Int32(index))
    }

    /// Column `index` as an `Int`, as ``int64(_:)`` reads it.
    @inline(__always)
    func int(_ index: Int) -> Int { Int(truncatingIfNeeded: int64(index)) }

    /// Whether column `index` is a non-zero integer.
    @inline(__always)
    func bool(_ index: Int) -> Bool { int64(index) != 0 }

    /// Column `index` as a double: NULL reads as 0.
    @inline(__always)
    func double(_ index: Int) -> Double {
        guard let statement else { return Double.fromDatabaseValue(copied!.values[index]) ?? 0 }
        return sqlite3_column_double(statement, Int32(index))
    }

    /// Column `index` as a double; nil for NULL.
    @inline(__always)
    func optionalDouble(_ index: Int) -> Double? { isNull(index) ? nil : double(index) }

    /// Column `index` as an integer; nil for NULL.
    @inline(__always)
    func optionalInt(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }

    /// Column `index` as text, by length (a text may hold a NUL); nil for NULL.
    @inline(__always)
    func text(_ index: Int) -> String? {
        guard statement != nil else { return String?.fromDatabaseValue(copied!.values[index]) ?? nil }
        return bytes(index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of text column `index` of a row in place, valid until the statement
    /// moves on; nil for NULL. For readers that compare or dispatch on a text without making
    /// a string of it.
    @inline(__always)
    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let statement else { preconditionFailure("the bytes of a copied row") }
        // The text first, then its length: SQLite's documented order.
        guard let text = sqlite3_column_text(statement, Int32(index)) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, Int32(index))))
    }

    /// Column `index` as `Value`; an optional type reads NULL as nil. A value that is not of
    /// that type is a programming error, as a wrong column would be.
    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        let value: Value?
        if let statement {
            let column = Int32(index)
            value = sqlite3_column_type(statement, column) == SQLITE_NULL ? Value.fromDatabaseValue(.null) : Value.fromStatement(statement, column)
        } else {
            value = Value.fromDatabaseValue(copied!.values[index])
        }
        guard let value else { fatalError("column \(index) holds \(values[index]), which is not a \(Value.self)") }
        return value
    }

    /// The leftmost column named `name` (in any case), as ``subscript(_:)-(Int)`` reads it.
    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        let lowered = name.lowercased()
        guard let index = columnNames.firstIndex(where: { $0.lowercased() == lowered }) else { fatalError("no column \(name)") }
        return self[index]
    }

    static func == (lhs: Row, rhs: Row) -> Bool { lhs.columnNames == rhs.columnNames && lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }

    var description: String {
        "[" + zip(columnNames, values).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Row? {
        try statement.withFirstRow(arguments: arguments) { $0.copy() }
    }

    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try db.makeStatement(sql: sql).forEachRow(arguments: arguments) { rows.append($0.copy()) }
        return rows
    }

    /// The rows one at a time, for a result too large to hold at once.
    static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return RowCursor(statement)
    }
}

/// The rows of a statement, stepped through on demand with ``next()``, each a copy.
final class RowCursor {
    private let statement: Statement
    private var done = false

    init(_ statement: Statement) { self.statement = statement }

    deinit { statement.reset() }

    /// The next row; nil after the last.
    func next() throws -> Row? {
        if done { return nil }
        // Done after an error too: the statement is reset, and would start again.
        done = true
        guard let row = try statement.step() else { return nil }
        done = false
        return row.copy()
    }
}

extension DatabaseValueConvertible {
    /// The first column of the first row; nil when there is no row, or it holds NULL.
    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Self? {
        let value = try statement.withFirstRow(arguments: arguments) { row -> Self?? in
            if row.isNull(0) { return .some(nil) }
            return row.decoded(Self.self, 0).map { .some($0) }
        }
        guard let value else { return nil }
        guard let value else { throw undecodable(statement) }
        return value
    }

    /// The first column of every row.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        let statement = try db.makeStatement(sql: sql)
        var values: [Self] = []
        try statement.forEachRow(arguments: arguments) { row in
            guard !row.isNull(0), let value = row.decoded(Self.self, 0) else { throw undecodable(statement) }
            values.append(value)
        }
        return values
    }

    private static func undecodable(_ statement: Statement) -> DatabaseError {
        DatabaseError(resultCode: .mismatch, message: "a value of the first column is not a \(Self.self)", sql: statement.sql)
    }
}

extension Row {
    /// Column `index` of a row in place as `Value`, as SQLite converts it; nil when it cannot be one.
    fileprivate func decoded<Value: DatabaseValueConvertible>(_ type: Value.Type, _ index: Int) -> Value? {
        guard let statement else { return Value.fromDatabaseValue(copied!.values[index]) }
        return Value.fromStatement(statement, Int32(index))
    }
}
