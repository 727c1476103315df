import CSQLite

/// A read-only connection of its own to a history, for reading part of it on another thread.
/// SQLite's C interface directly: a ``DatabaseQueue`` brings a lock, and a transaction and
/// `query_only` around each read, that this reader does not need.
final class SecondConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// `path`: a file's path, or the URI its store was opened with.
    init?(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            return nil
        }
        sqlite3_busy_timeout(handle, 10_000)
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    /// Steps through the rows of `sql`, whose two parameters are a range of run IDs; false
    /// when SQLite fails (the caller then reads them on its own connection).
    func forEachRow(_ sql: String, from first: Int64, to last: Int64, _ body: (Row) -> Void) -> Bool {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return false }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, first)
        sqlite3_bind_int64(statement, 2, last)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: body(Row(inPlace: statement))
            case SQLITE_DONE: return true
            default: return false
            }
        }
    }
}
