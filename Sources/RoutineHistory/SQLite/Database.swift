import CSQLite

/// How a connection is opened.
struct Configuration {
    /// Opened read-only (`SQLITE_OPEN_READONLY`).
    var readonly = false
    /// How long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY`, in seconds; zero fails at once.
    var busyTimeout: Double = 0
    /// Whether opening reads the schema, so that a file that is not a database fails there;
    /// false for a connection whose first statement follows at once and fails the same way.
    var probesAtOpen = true
}

/// How a transaction takes its locks: a deferred one when it first reads or writes, an
/// immediate one the write lock at once.
enum TransactionKind: String {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
}

/// What a transaction's body asks for at its end.
enum TransactionCompletion {
    case commit, rollback
}

/// One SQLite connection. Every use is serialised by its ``DatabaseQueue``.
///
/// Each connection has foreign keys checked, extended result codes, and no double-quoted
/// string literals: a misspelt column name is an error, never a string.
final class Database {
    let sqliteConnection: OpaquePointer
    let configuration: Configuration
    /// Statements by SQL text, prepared once for the connection's life.
    private var statements: [String: Statement] = [:]
    private var readOnlyDepth = 0
    private var isClosed = false

    init(path: String, configuration: Configuration) throws {
        var flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // URI for `file:…?immutable=1`: a plain path starting with `file:` is given `./` first.
        // 0x02000000 is SQLITE_OPEN_EXRESCODE: the code of a failed open is extended too.
        flags |= SQLITE_OPEN_URI | 0x0200_0000
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code))
        }
        sqliteConnection = handle
        self.configuration = configuration
        do {
            try setUp()
        } catch {
            isClosed = true
            sqlite3_close_v2(handle)
            throw error
        }
    }

    private func setUp() throws {
        if configuration.busyTimeout > 0 { sqlite3_busy_timeout(sqliteConnection, Int32(configuration.busyTimeout * 1000)) }
        var applied: Int32 = 0
        _ = routine_sqlite3_db_config_int(sqliteConnection, SQLITE_DBCONFIG_DQS_DDL, 0, &applied)
        _ = routine_sqlite3_db_config_int(sqliteConnection, SQLITE_DBCONFIG_DQS_DML, 0, &applied)
        // A read-only connection writes nothing for the keys to check.
        if !configuration.readonly { try execute(sql: "PRAGMA foreign_keys = ON") }
        sqlite3_extended_result_codes(sqliteConnection, 1)
        // A file that is not a database fails here, at opening, rather than at its first use.
        guard configuration.probesAtOpen else { return }
        _ = try makeStatement(sql: "SELECT * FROM sqlite_master LIMIT 1").withFirstRow(arguments: []) { _ in () }
    }

    deinit {
        guard !isClosed else { return }
        statements = [:]
        // _v2: a statement still held elsewhere keeps the connection until it is finalized.
        sqlite3_close_v2(sqliteConnection)
    }

    /// Closes the connection; an error leaves it open, as SQLite does.
    func close() throws {
        guard !isClosed else { return }
        statements = [:]
        let code = sqlite3_close(sqliteConnection)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage) }
        isClosed = true
    }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(sqliteConnection)) }

    /// The rows the last INSERT, UPDATE or DELETE changed.
    var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }

    var isInsideTransaction: Bool { sqlite3_get_autocommit(sqliteConnection) == 0 }

    /// Closing this connection, the last to a file in WAL mode, then leaves the WAL as it is
    /// instead of checkpointing it into the file (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`).
    func keepWALOnClose() {
        var applied: Int32 = 0
        _ = routine_sqlite3_db_config_int(sqliteConnection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &applied)
    }

    /// A new statement for the one statement `sql` holds.
    func makeStatement(sql: String) throws -> Statement {
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v2(sqliteConnection, sql, -1, &raw, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql) }
        guard let raw else { throw DatabaseError(resultCode: .misuse, message: "no statement", sql: sql) }
        return Statement(raw, sql: sql, connection: sqliteConnection)
    }

    /// The statement for `sql`, prepared at its first use and kept for the connection's life.
    func cachedStatement(sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs every statement of `sql` in turn; `arguments` are taken by each in order, as
    /// many as it has parameters, and must all be taken.
    func execute(sql: String, arguments: StatementArguments = []) throws {
        var remaining = arguments.values[...]
        try sql.withCString { text in
            var next: UnsafePointer<CChar>? = text
            while let start = next, start.pointee != 0 {
                var raw: OpaquePointer?
                let code = sqlite3_prepare_v2(sqliteConnection, start, -1, &raw, &next)
                guard code == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
                }
                // Nothing but blanks, a comment or a lone semicolon.
                guard let raw else {
                    if next == start { break }
                    continue
                }
                let statement = Statement(raw, sql: sql, connection: sqliteConnection)
                let count = Int(sqlite3_bind_parameter_count(raw))
                guard remaining.count >= count else { throw wrongArgumentCount(arguments, sql) }
                try statement.execute(arguments: StatementArguments(remaining.prefix(count)))
                remaining = remaining.dropFirst(count)
            }
        }
        guard remaining.isEmpty else { throw wrongArgumentCount(arguments, sql) }
    }

    private func wrongArgumentCount(_ arguments: StatementArguments, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: .misuse, message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
    }

    /// Runs `body` in a transaction of `kind`: committed when it asks for it, rolled back when
    /// it asks for that or throws. The first error is the one thrown.
    func inTransaction(_ kind: TransactionKind, _ body: () throws -> TransactionCompletion) throws {
        try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
        var firstError: (any Error)?
        var needsRollback = true
        do {
            if try body() == .commit {
                // SQLite may have rolled the transaction back itself after an error (a full
                // disk, an I/O error): a COMMIT then would fail with a misleading message.
                guard isInsideTransaction else { throw DatabaseError(resultCode: .abort, message: "Transaction was aborted") }
                try cachedStatement(sql: "COMMIT TRANSACTION").execute()
                needsRollback = false
            }
        } catch {
            firstError = error
        }
        if needsRollback, isInsideTransaction {
            do {
                try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Runs `body` with writes refused (`PRAGMA query_only`), in a deferred transaction unless
    /// one is open already: every read of it sees one state of the file.
    func isolatedRead<T>(_ body: () throws -> T) throws -> T {
        try readOnly {
            if isInsideTransaction { return try body() }
            var result: T?
            try inTransaction(.deferred) {
                result = try body()
                return .commit
            }
            return result!
        }
    }

    private func readOnly<T>(_ body: () throws -> T) throws -> T {
        // A read-only connection refuses writes already.
        if configuration.readonly { return try body() }
        if readOnlyDepth == 0 { try cachedStatement(sql: "PRAGMA query_only = 1").execute() }
        readOnlyDepth += 1
        let result: T
        do {
            result = try body()
        } catch {
            readOnlyDepth -= 1
            if readOnlyDepth == 0 { try? cachedStatement(sql: "PRAGMA query_only = 0").execute() }
            throw error
        }
        readOnlyDepth -= 1
        if readOnlyDepth == 0 { try cachedStatement(sql: "PRAGMA query_only = 0").execute() }
        return result
    }

    /// Whether the main schema has a table named exactly `name`: the quickest question about
    /// the schema, for what a reader asks at every prompt.
    func hasTable(named name: String) throws -> Bool {
        try cachedStatement(sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").withFirstRow(arguments: [name]) { _ in true }
            ?? false
    }

    /// The file's `application_id`, which tells whose database it is.
    func applicationID() throws -> Int32 {
        // The plain PRAGMA statement: its table-valued form costs a virtual table.
        Int32(truncatingIfNeeded: try makeStatement(sql: "PRAGMA application_id").withFirstRow(arguments: []) { $0.int64(0) } ?? 0)
    }

    /// Whether the main or temporary schema has a table named `name`, in any case.
    func tableExists(_ name: String) throws -> Bool {
        let sql = """
            SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?1)
            UNION ALL SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND lower(name) = lower(?1)
            """
        return try Bool.fetchOne(cachedStatement(sql: sql), arguments: [name]) ?? false
    }

    /// A column of a table, as `PRAGMA table_xinfo` lists it.
    struct ColumnInfo {
        var name: String
    }

    /// The columns of table `name`, in order; an error when there is no such table.
    func columns(in name: String) throws -> [ColumnInfo] {
        let quoted = "\"" + name.replacing("\"", with: "\"\"") + "\""
        // Hidden columns of virtual tables are not the table's; generated columns are.
        let rows = try Row.fetchAll(self, sql: "PRAGMA table_xinfo(\(quoted))")
        guard !rows.isEmpty else { throw DatabaseError(message: "no such table: \(name)") }
        return rows.filter { ($0["hidden"] as Int) != 1 }.map { ColumnInfo(name: $0["name"]) }
    }
}
