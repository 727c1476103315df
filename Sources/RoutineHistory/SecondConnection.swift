import CSQLite
import RoutineKit

/// A read-only connection of its own to a history, for reading part of it on another thread.
/// SQLite's C interface directly: a ``DatabaseQueue`` brings a lock, and a transaction and
/// `query_only` around each read, that this reader does not need.
final class SecondConnection: @unchecked Sendable {
    /// Below this many runs a second thread costs about what it saves.
    static let runsWorthIt = 400

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
    func forEachRow(_ sql: String, from first: Int64, to last: Int64, _ body: (OpaquePointer) -> Void) -> Bool {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return false }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, first)
        sqlite3_bind_int64(statement, 2, last)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: body(statement)
            case SQLITE_DONE: return true
            default: return false
            }
        }
    }

    /// Splits the sorted run IDs `ids` in two and reads the older half with `side` on a second
    /// connection while this thread runs `meanwhile`, then reads the newer half with `main`;
    /// returns both results, older first. Each run's rows come whole from one connection; the
    /// caller's read transaction selected `ids`, and the runs recorded since have higher IDs.
    /// `meanwhile` covers the other thread's start, which takes milliseconds when the other
    /// core sleeps. Without a second connection, or with fewer than `runs` runs, this thread
    /// reads all of them.
    static func split<Part: Sendable>(
        _ ids: [Int64], path: String, from runs: Int, side: @escaping @Sendable (SecondConnection, Int64, Int64) -> Part?,
        meanwhile: () throws -> Void, main: (Int64, Int64) throws -> Part
    ) throws -> [Part] {
        guard let first = ids.first, let last = ids.last else {
            try meanwhile()
            return []
        }
        guard ids.count >= max(2, runs), let other = SecondConnection(path: path) else {
            try meanwhile()
            return [try main(first, last)]
        }
        let middle = ids[ids.count / 2]
        let (older, newer) = try alongside({ side(other, first, middle - 1) }) {
            try meanwhile()
            return try main(middle, last)
        }
        return [try older ?? main(first, middle - 1), newer]
    }
}

/// Run ID → its place among `ids` (ascending): how the halves read on two connections name
/// their runs before the caller's list of runs is at hand.
func ranks(_ ids: [Int64]) -> [Int64: Int] {
    Dictionary(uniqueKeysWithValues: ids.enumerated().lazy.map { ($1, $0) })
}
