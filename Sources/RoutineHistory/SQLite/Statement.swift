import CSQLite

/// The values of a statement's parameters, in order.
struct StatementArguments: ExpressibleByArrayLiteral, Sendable {
    var values: [DatabaseValue]

    init(arrayLiteral elements: (any DatabaseValueConvertible)?...) { self.init(elements) }

    init(_ elements: some Sequence<(any DatabaseValueConvertible)?>) {
        values = elements.map { $0?.databaseValue ?? .null }
    }

    init<S: Sequence>(_ elements: S) where S.Element: DatabaseValueConvertible {
        values = elements.map(\.databaseValue)
    }

    static func += (lhs: inout StatementArguments, rhs: StatementArguments) { lhs.values += rhs.values }
}

/// A prepared statement of one connection. A statement is reset before each use and after
/// it has run, so that none holds a read open between uses.
final class Statement {
    let sqliteStatement: OpaquePointer
    let sql: String
    private let connection: OpaquePointer

    init(_ raw: OpaquePointer, sql: String, connection: OpaquePointer) {
        sqliteStatement = raw
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(sqliteStatement) }

    /// Resets the statement and binds `arguments`, which must be as many as its parameters.
    func setArguments(_ arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        let count = Int(sqlite3_bind_parameter_count(sqliteStatement))
        guard arguments.values.count == count else {
            throw DatabaseError(
                resultCode: .misuse, message: "wrong number of statement arguments: \(arguments.values.count) for \(count)", sql: sql)
        }
        for (offset, value) in arguments.values.enumerated() {
            let code = bind(value, at: Int32(offset + 1), of: sqliteStatement)
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Runs the statement to its end with `arguments`, ignoring any rows.
    func execute(arguments: StatementArguments = []) throws {
        try forEachRow(arguments: arguments) { _ in }
    }

    /// The first row, handed to `read` in place while the statement is on it; nil when there
    /// is none.
    func withFirstRow<T>(arguments: StatementArguments, _ read: (Row) throws -> T) throws -> T? {
        try setArguments(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        guard let row = try step() else { return nil }
        return try read(row)
    }

    /// Each row in turn, handed to `read` in place while the statement is on it.
    func forEachRow(arguments: StatementArguments, _ read: (Row) throws -> Void) throws {
        try setArguments(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        while let row = try step() { try read(row) }
    }

    /// Moves to the next row: the row in place, or nil after the last, when the statement is
    /// reset.
    @inline(__always)
    func step() throws -> Row? {
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW { return Row(inPlace: sqliteStatement) }
        // The message is read before the reset.
        let failure = code == SQLITE_DONE ? nil : error(code)
        sqlite3_reset(sqliteStatement)
        if let failure { throw failure }
        return nil
    }

    /// Resets the statement, so that it holds no read open.
    func reset() { sqlite3_reset(sqliteStatement) }

    /// The connection's error for a failed call on this statement.
    func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}

/// SQLite copies texts and blobs: the Swift value they came from may go before the statement runs.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Binds `value` to parameter `index` of `statement`; SQLite's result code.
func bind(_ value: DatabaseValue, at index: Int32, of statement: OpaquePointer) -> Int32 {
    switch value.storage {
    case .null: return sqlite3_bind_null(statement, index)
    case .int64(let n): return sqlite3_bind_int64(statement, index, n)
    case .double(let d): return sqlite3_bind_double(statement, index, d)
    case .string(var s):
        return s.withUTF8 { bytes in
            // An empty text, not NULL: SQLite binds NULL for a null pointer.
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(statement, index, $0, Int32(bytes.count), transient)
            }
        }
    case .blob(let b):
        // A blob of no bytes is still a blob: a null pointer would bind NULL.
        guard !b.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return b.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
    }
}
