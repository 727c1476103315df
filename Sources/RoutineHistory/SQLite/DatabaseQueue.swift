import Synchronization

/// A connection that one thread at a time uses: the history's studio serves requests on
/// several threads at once.
final class DatabaseQueue: @unchecked Sendable {
    private let database: Database
    /// A use of the connection from inside another is a programming error: the mutex traps
    /// rather than waits for itself.
    private let mutex = Mutex(())

    /// Opens `path`, a file or a `file:` URI; by default a new database in memory.
    init(path: String = ":memory:", configuration: Configuration = Configuration()) throws {
        database = try Database(path: path, configuration: configuration)
    }

    /// Runs `body` with the connection as it is: no transaction, writes allowed.
    func inDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body(database) }
    }

    /// The same as ``inDatabase(_:)``: the caller runs its own transactions.
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) rethrows -> T {
        try inDatabase(body)
    }

    /// Runs `body` in an IMMEDIATE transaction, committed unless it throws: the layer's write,
    /// without the store's retries, signal and sync (``HistoryStore/writeAndSync(_:)``).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try inDatabase { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// Runs `body` with writes refused, in a DEFERRED transaction (``Database/isolatedRead(_:)``).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try inDatabase { db in try db.isolatedRead { try body(db) } }
    }

    /// Closes the connection; see ``Database/close()``.
    func close() throws {
        try inDatabase { try $0.close() }
    }
}
