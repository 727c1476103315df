import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// A routine history: an SQLite file of runs and their steps, in WAL mode.
///
/// Opening checks the file before anything is written to it: a file that is not SQLite,
/// another application's database, or a history of a newer schema is refused and left
/// untouched. A missing file is created (with its folder, mode 0700) only when asked to.
public final class HistoryStore: @unchecked Sendable {
    public let path: String
    let queue: DatabaseQueue
    /// What SQLite is given to open the file: its path, or a URI for a read-only file.
    let location: String
    /// Whether the file has the columns of logs (v5); a read-only file of an older schema,
    /// which is read without migrating, has not.
    private(set) var hasLogColumns = true

    private init(path: String, queue: DatabaseQueue, location: String) {
        self.path = path
        self.queue = queue
        self.location = location
    }

    /// Opens the history at `path`. When the file does not exist, it is created if `create`
    /// is true, and otherwise the result is nil (a command that only reads has nothing to read).
    /// `readOnly`: the caller only reads, so a file that this user cannot write (a backup, a
    /// read-only folder) is read as it is, without the files WAL mode would create beside it.
    public static func open(_ path: String, create: Bool, readOnly: Bool = false) throws(HistoryError) -> HistoryStore? {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw .notAHistory(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file")
            }
            try checkMagic(path, size: Int(info.st_size))
            if readOnly, !isWritable(path) { return try openUnwritable(path) }
        } else if errno == ENOENT {
            guard create else { return nil }
            try makeFolder(of: path)
        } else {
            throw .unavailable(path: path, reason: systemError())
        }
        var configuration = Configuration()
        // Two runs writing at once wait for each other rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.label = "routine history"
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: plainPath(path), configuration: configuration)
        } catch {
            throw classify(error, path: path)
        }
        let store = HistoryStore(path: path, queue: queue, location: plainPath(path))
        try store.prepare(try store.checkOwnership())
        return store
    }

    /// `path` as SQLite must be given it to read it as a file name: SQLite reads a name that
    /// starts with `file:` as a URI, so a relative one gets `./` in front.
    private static func plainPath(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// Whether this process may write the file and create files beside it, as WAL mode needs.
    private static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return access(path, W_OK) == 0 && access(folder, W_OK) == 0
    }

    /// A history this user cannot write, opened read-only as an immutable file: SQLite would
    /// otherwise need to create the WAL index beside it, and refuse. Changes still waiting in
    /// its WAL file would be missed that way, so such a file is refused with the reason.
    static func openUnwritable(_ path: String) throws(HistoryError) -> HistoryStore? {
        var info = stat()
        if stat(path + "-wal", &info) == 0, info.st_size > 0 {
            throw .unavailable(path: path, reason: "it is read-only here and has changes not yet applied in '\(path)-wal'; open it once with write access")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "routine history"
        let location = "file:" + uriEscaped(path) + "?immutable=1"
        let store: HistoryStore
        do {
            store = HistoryStore(path: path, queue: try DatabaseQueue(path: location, configuration: configuration), location: location)
        } catch {
            throw classify(error, path: path)
        }
        // Nothing is migrated or marked: the readers use what every schema since the first has.
        // A file with no runs table yet (an empty file, one being created) has nothing to read.
        let state = try store.checkOwnership()
        let hasRuns = (try? store.queue.read { try $0.tableExists("run") }) ?? false
        store.hasLogColumns = (try? store.queue.read { db in try db.columns(in: "run").contains { $0.name == "kind" } }) ?? false
        return state.isMarked && hasRuns ? store : nil
    }

    /// `path` for a `file:` URI: the characters a URI gives a meaning escaped.
    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x21 || byte >= 0x7F {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    /// The SQLite header, read before SQLite is allowed to touch the file. An empty file is a
    /// new database (for example one made by `mktemp`).
    private static func checkMagic(_ path: String, size: Int) throws(HistoryError) {
        guard size > 0 else { return }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unavailable(path: path, reason: systemError()) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let n = header.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 16) }
        guard n == 16, header == Array("SQLite format 3\0".utf8) else {
            throw .notAHistory(path: path, reason: "it is not an SQLite database")
        }
    }

    /// What a file that is about to be used already has, so that opening an up-to-date
    /// history writes nothing.
    private struct State {
        var isMarked: Bool
        var isWAL: Bool
        var isMigrated: Bool
    }

    /// Refuses another application's database and a schema newer than this binary knows.
    private func checkOwnership() throws(HistoryError) -> State {
        let migrator = HistorySchema.migrator
        do {
            return try queue.read { db in
                let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") ?? 0
                if id != HistorySchema.applicationID, id != 0 || tables > 0 {
                    throw HistoryError.notAHistory(path: path, reason: "it is another application's database")
                }
                if try migrator.hasBeenSuperseded(db) { throw HistoryError.newerSchema(path: path) }
                return State(
                    isMarked: id == HistorySchema.applicationID,
                    isWAL: try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal",
                    isMigrated: try migrator.hasCompletedMigrations(db))
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The application id, WAL, then the migrations this file lacks. The id comes first, so
    /// that another process opening the same new file meanwhile knows it for a history.
    private func prepare(_ state: State) throws(HistoryError) {
        let migrator = HistorySchema.migrator
        do {
            try Self.retryingWhenBusy {
                try queue.writeWithoutTransaction { db in
                    if !state.isMarked { try db.execute(sql: "PRAGMA application_id = \(HistorySchema.applicationID)") }
                    // Changing the journal mode takes a lock that the busy timeout does not
                    // wait for; a file already in WAL mode needs no change.
                    if !state.isWAL { try db.execute(sql: "PRAGMA journal_mode = WAL") }
                    // WAL commits survive a killed process without a sync per step.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            }
            if state.isMigrated { return }
            // Another process may be migrating the same new history at the same moment: a
            // migration it applied meanwhile fails here, and the next attempt takes up after
            // the ones it finished, for up to about five seconds.
            var attempt = 0
            while true {
                do {
                    try migrator.migrate(queue)
                    break
                } catch {
                    if (try? queue.read({ try migrator.hasCompletedMigrations($0) })) == true { break }
                    attempt += 1
                    if attempt >= 250 { throw error }
                    usleep(20_000)
                }
            }
            // The migrations' pages would otherwise wait in the WAL beside the file they built
            // (a new history's WAL five times its file), until a thousand pages.
            try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Runs `body` again while SQLite answers that the file is busy in a way its busy
    /// timeout does not cover, for up to about five seconds.
    static func retryingWhenBusy<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 250 {
                attempt += 1
                usleep(20_000)
            }
        }
    }

    static func classify(_ error: any Error, path: String) -> HistoryError {
        if let error = error as? HistoryError { return error }
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_NOTADB {
                return .notAHistory(path: path, reason: "it is not an SQLite database")
            }
            return .unavailable(path: path, reason: (error.message ?? "\(error.resultCode)").lowercased())
        }
        return .unavailable(path: path, reason: "\(error)")
    }

    /// Creates the folders on the way to `path` that are missing, each with mode 0700.
    private static func makeFolder(of path: String) throws(HistoryError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var missing: [String] = []
        var current = folder
        var info = stat()
        while !current.isEmpty, stat(current, &info) != 0 {
            missing.append(current)
            guard let up = current.lastIndex(of: "/") else { break }
            current = String(current[..<up])
        }
        for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .unavailable(path: path, reason: "cannot create the folder '\(folder)': \(systemError())")
        }
    }
}

func systemError() -> String { String(cString: strerror(errno)).lowercased() }
