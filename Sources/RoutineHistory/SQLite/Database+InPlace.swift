import CSQLite

extension Database {
    /// Steps through the rows of `sql`, handing `body` each row in place (``Row/init(inPlace:)``):
    /// for readers of ten years of steps, where a copied row per step costs more than the query.
    /// `cached`: the statement is kept for the connection's next call, for a query made once
    /// per key of a sync.
    func forEachRow(_ sql: String, arguments: StatementArguments = [], cached: Bool = false, _ body: (Row) throws -> Void) throws {
        try (cached ? cachedStatement(sql: sql) : makeStatement(sql: sql)).forEachRow(arguments: arguments, body)
    }

    /// Whether `sql`, with `arguments` bound, gives a row.
    func hasRow(_ sql: String, _ arguments: StatementArguments = []) throws -> Bool {
        var found = false
        try forEachRow(sql, arguments: arguments) { _ in found = true }
        return found
    }

    /// Runs the cached statement `sql` once, its parameters bound in order by `bind`: for
    /// writers of a hundred thousand steps, where an array of ``StatementArguments`` per row
    /// would cost more than the insert itself.
    func executeBinding(_ sql: String, _ bind: (inout StatementBindings) -> Void) throws {
        try cachedStatement(sql: sql).executeBinding(bind)
    }
}

extension Statement {
    /// Runs the statement once, its parameters bound in order by `bind`.
    func executeBinding(_ bind: (inout StatementBindings) -> Void) throws {
        let raw = sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        var bindings = StatementBindings(raw: raw)
        bind(&bindings)
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code) }
    }
}

/// The parameters of one statement, bound from the first on; nil binds NULL.
struct StatementBindings {
    private let raw: OpaquePointer
    private var index: Int32 = 0

    fileprivate init(raw: OpaquePointer) { self.raw = raw }

    mutating func text(_ value: String?) {
        index += 1
        _ = bind(value?.databaseValue ?? .null, at: index, of: raw)
    }

    mutating func int(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }

    mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    mutating func bool(_ value: Bool) { int(value ? 1 : 0 as Int64) }

    mutating func double(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }
}
