import GRDB
import GRDBSQLite

extension Database {
    /// Steps through the rows of `sql` with SQLite's own calls, handing `body` the statement
    /// positioned on each row: for readers of ten years of steps, where a GRDB row per step
    /// costs more than the query, and every column read is a plain value.
    func forEachRawRow(_ sql: String, arguments: StatementArguments, _ body: (OpaquePointer) throws -> Void) throws {
        let statement = try makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)))
            }
            try body(raw)
        }
    }
}
