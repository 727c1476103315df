import RoutineKit

/// The store's transactions: every read and write of the history passes through one of them.
extension HistoryStore {
    /// Runs `body` in a write transaction (``writeWithoutSync(checkingForeignKeys:_:)``); then
    /// closing folds the WAL in, and a member of a sync folder writes what it owes its
    /// journal: every log, run step, import and studio change passes here.
    func writeAndSync<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        let result = try writeWithoutSync(body)
        flags.foldsOnClose = true
        if flags.syncOn { syncAfterWrite() }
        return result
    }

    /// One IMMEDIATE transaction, retried while the file is busy; once it is committed, the
    /// status bars are told (``BarSignal``). The journal is not written: that is
    /// ``writeAndSync(_:)``, and the sync's own writes come here.
    /// `checkingForeignKeys` false is for a writer of a hundred thousand rows that it makes
    /// parent first, where SQLite's lookup of each row's parent costs a tenth of the insert;
    /// SQLite turns the checks off and on only between transactions.
    func writeWithoutSync<T>(checkingForeignKeys: Bool = true, _ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            // IMMEDIATE takes the write lock at the start, where the busy timeout waits for it;
            // a deferred transaction that reads first could fail later without waiting.
            let written = try Self.retryingWhenBusy {
                try queue.writeWithoutTransaction { db in
                    if !checkingForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                    defer { if !checkingForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
            BarSignal.send()
            return written
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Runs `body` with writes refused, in one read transaction (``DatabaseQueue/read(_:)``).
    func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
