import RoutineKit

/// The store's transactions: every read and write of the history passes through one of them.
extension HistoryStore {
    /// Runs `body` in a write transaction; once it is committed, the status bars are told
    /// (``BarSignal``): every log, run step and studio change passes here.
    func write<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        let result = try transaction(body)
        flags.foldsOnClose = true
        if flags.syncOn { syncAfterWrite() }
        return result
    }

    /// One IMMEDIATE transaction, without the journal's turn that ``write(_:)`` adds.
    /// `checkingForeignKeys` false is for a writer of a hundred thousand rows that it makes
    /// parent first, where SQLite's lookup of each row's parent costs a tenth of the insert;
    /// SQLite turns the checks off and on only between transactions.
    func transaction<T>(checkingForeignKeys: Bool = true, _ body: (Database) throws -> T) throws(HistoryError) -> T {
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

    func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
