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
    /// What the store knows of its file and owes it at closing, as one value: set while it
    /// opens, then by its writes and its sync (``Flags``).
    var flags = Flags()
    /// ``journalMark`` when the history was opened.
    private var journalMarkAtOpen: String?
    /// The frames in the WAL after this connection's last commit (``WALFrames``).
    private let walFrames = WALFrames()

    init(path: String, queue: DatabaseQueue, location: String) {
        self.path = path
        self.queue = queue
        self.location = location
    }

    deinit {
        guard flags.isWriter else { return }
        walFrames.uninstall(from: queue)
        if !flags.foldsOnClose, walFrames.count <= Self.keptWALFrames, journalMark() == journalMarkAtOpen { keepWALOnClose() }
        guard flags.stampsOnClose else { return }
        // Closed first: the checkpoint on closing writes the file, and the stamp names it as
        // it is left. A connection that fails to close leaves no stamp.
        do { try queue.close() } catch { return }
        CheckedStamp.record(path)
    }

    /// Opens the history at `path`: the one way to open a history's file. When the file does
    /// not exist, it is created if `create` is true, and otherwise the result is nil (a
    /// command that only reads has nothing to read).
    ///
    /// `readOnly`: the caller only reads, and the store never writes to the file, so a file
    /// that this user cannot write (a backup, a read-only folder) is read as it is, without
    /// the files WAL mode would create beside it. A writer that is a member of a sync folder
    /// first writes what it owes its journal and reads what is new in the other devices'
    /// journals; a reader does so only when asked by `syncingThroughAWriter`, through a writer
    /// of its own that it closes before reading.
    public static func open(
        _ path: String, create: Bool, readOnly: Bool = false, syncingThroughAWriter: Bool = false
    ) throws(HistoryError) -> HistoryStore? {
        let store = try openStore(path, create: create, readOnly: readOnly)
        if !readOnly || syncingThroughAWriter { store?.syncAfterOpen(readOnly: readOnly) }
        return store
    }

    /// Opens the history as ``open(_:create:readOnly:syncingThroughAWriter:)`` does, without
    /// the sync at opening.
    static func openStore(_ path: String, create: Bool, readOnly: Bool = false) throws(HistoryError) -> HistoryStore? {
        var info = stat()
        // Whether the file is known sound: new, empty, checked whole, or as a stamp names it.
        var sound = false
        var checked = false
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw .notAHistory(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file")
            }
            try checkMagic(path, size: Int(info.st_size))
            if readOnly, !isWritable(path) { return try openUnwritable(path) }
            // A hot journal needs a writable connection, which rolls it back first.
            sound = info.st_size == 0
            if info.st_size > 0, !hasHotJournal(path) {
                // Taken before SQLite opens the file, so that its own reading changes nothing here.
                let stamped = !readOnly && CheckedStamp.matches(path)
                // A first look through a read-only connection, which never writes to the file:
                // a read-write one would checkpoint a WAL into it on closing, damaged or not.
                // On a full disk SQLite may be unable even to size its shared-memory file: a
                // reader then reads the file as it is, when no WAL holds changes for it.
                guard let (look, state) = try lookAt(path, readOnly: readOnly) else { return try openUnwritable(path) }
                // A writer looks at every page first: a damaged file is never written to,
                // wherever the damage lies. Readers find it where they read. A file as this
                // program's last sound close or check left it needs no second look.
                if !readOnly, !stamped {
                    if let problem = try look.firstIntegrityProblem() { throw .damaged(path: path, reason: problem) }
                    checked = true
                }
                sound = !readOnly
                if readOnly, state.isMarked, state.isWAL, state.isMigrated {
                    look.flags.syncKnownOff = !state.syncs
                    return look
                }
            }
        } else if errno == ENOENT {
            guard create else { return nil }
            try makeFolder(of: path)
            sound = true
        } else {
            throw .unavailable(path: path, reason: systemError())
        }
        var configuration = Configuration()
        // Two runs writing at once wait for each other rather than fail.
        configuration.busyTimeout = 10
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: plainPath(path), configuration: configuration)
        } catch {
            throw classify(error, path: path)
        }
        let store = HistoryStore(path: path, queue: queue, location: plainPath(path))
        store.flags.isWriter = true
        store.walFrames.install(on: queue)
        let state = try store.checkOwnership()
        // A history that joins a sync meanwhile gets its triggers' keys drained at the next open.
        store.flags.syncKnownOff = !state.syncs
        store.flags.foldsOnClose = !state.isMigrated
        store.journalMarkAtOpen = store.journalMark()
        try store.prepare(state)
        store.flags.stampsOnClose = sound
        store.flags.checkedWhole = checked
        return store
    }

    /// A new, empty history in memory, gone when the store is: `routine test` runs each case
    /// against one, never against the user's history.
    public static func temporary() throws(HistoryError) -> HistoryStore {
        let name = "temporary history"
        do {
            let queue = try DatabaseQueue(configuration: Configuration())
            try HistorySchema.migrator.migrate(queue)
            return HistoryStore(path: name, queue: queue, location: ":memory:")
        } catch {
            throw classify(error, path: name)
        }
    }

    /// `path` as SQLite must be given it to read it as a file name: SQLite reads a name that
    /// starts with `file:` as a URI, so a relative one gets `./` in front.
    static func plainPath(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// Whether this process may write the file and create files beside it, as WAL mode needs.
    static func isWritable(_ path: String) -> Bool {
        let folder = folderPath(of: path)
        return access(path, W_OK) == 0 && access(folder, W_OK) == 0
    }

    /// A read-only connection to an existing history, and what it found the file to hold. It
    /// never writes to the file nor checkpoints its WAL into it, so a damaged file stays
    /// exactly as it was; a reader of an up-to-date file keeps it.
    /// Nil for a reader when SQLite fails to read for want of room beside the file while its
    /// WAL is empty: the file alone then holds every change.
    private static func lookAt(_ path: String, readOnly: Bool) throws(HistoryError) -> (HistoryStore, State)? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyTimeout = 10
        configuration.probesAtOpen = false
        do {
            let store = HistoryStore(
                path: path, queue: try DatabaseQueue(path: plainPath(path), configuration: configuration), location: plainPath(path))
            return (store, try store.ownershipState())
        } catch {
            if readOnly, let error = error as? DatabaseError, error.resultCode == .ioError || error.resultCode == .full {
                var info = stat()
                if stat(path + "-wal", &info) != 0 || info.st_size == 0 { return nil }
            }
            throw classify(error, path: path)
        }
    }

    /// The SQLite header, read before SQLite is allowed to touch the file. An empty file is a
    /// new database (for example one made by `mktemp`).
    static func checkMagic(_ path: String, size: Int) throws(HistoryError) {
        guard size > 0 else { return }
        let fd = HeaderReaders.shared.descriptor(path)
        guard fd >= 0 else { throw .unavailable(path: path, reason: systemError()) }
        var header = [UInt8](repeating: 0, count: 16)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        guard n == 16, header == Array("SQLite format 3\0".utf8) else {
            throw .notAHistory(path: path, reason: "it is not an SQLite database")
        }
    }

    /// What a file that is about to be used already has, so that opening an up-to-date
    /// history writes nothing.
    struct State {
        var isMarked: Bool
        var isWAL: Bool
        var isMigrated: Bool
        /// Whether it has the sync's tables: a member of a sync folder.
        var syncs: Bool
    }

    /// Refuses another application's database and a schema newer than this binary knows.
    func checkOwnership() throws(HistoryError) -> State {
        do {
            return try ownershipState()
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    private func ownershipState() throws -> State {
        try queue.read { db in
            var id: Int32 = 0
            var isWAL = false
            var tables: Int64 = 0
            var hasMigrations = false
            var syncs = false
            id = try db.applicationID()
            // The plain PRAGMA statement: its table-valued form costs a virtual table.
            try db.forEachRow("PRAGMA journal_mode") { isWAL = $0.text(0)?.lowercased() == "wal" }
            try db.forEachRow(Self.lookSQL) { row in
                tables = row.int64(0)
                hasMigrations = row.bool(1)
                syncs = row.bool(2)
            }
            if id != HistorySchema.applicationID, id != 0 || tables > 0 {
                throw HistoryError.notAHistory(path: path, reason: "it is another application's database")
            }
            let migrator = HistorySchema.migrator
            let applied = try migrator.appliedIdentifiers(db, hasTable: hasMigrations)
            // Only a sound file's own version mark says "newer": damage can look like one.
            if migrator.hasBeenSuperseded(applied) {
                if let problem = try Self.firstIntegrityProblem(db) { throw HistoryError.damaged(path: path, reason: problem) }
                throw HistoryError.newerSchema(path: path)
            }
            return State(isMarked: id == HistorySchema.applicationID, isWAL: isWAL, isMigrated: migrator.hasCompleted(applied), syncs: syncs)
        }
    }

    /// What a file's tables are, in one statement rather than one for each question: a reader
    /// of an up-to-date history asks little before its own query (`today` at every prompt).
    /// How many tables it has, and whether it has the migrations' table and the sync's.
    private static let lookSQL = """
        SELECT count(*), count(*) FILTER (WHERE lower(name) = 'grdb_migrations'), count(*) FILTER (WHERE name = 'syncState')
        FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        """

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
            // A migration that rebuilds a table (v7 rebuilt `amendment`) drops its triggers:
            // a history that syncs gets back the ones that fill its outbox.
            try queue.write { db in if try SyncSchema.isInstalled(db) { try SyncSchema.installTriggers(db) } }
            // The migrations' pages would otherwise wait in the WAL beside the file they built
            // (a new history's WAL five times its file), until a thousand pages.
            try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The sync folder, this device's id, name and last sequence number, and how far it wrote
    /// its journal; nil for a history that does not sync. When a command changed it (joined,
    /// left, or wrote to its journal), the history must be synced with the journal, or after
    /// a power cut it would not know its own lines for its own.
    private func journalMark() -> String? {
        let mark = try? read { db -> String? in
            guard try SyncSchema.isInstalled(db), let row = try Row.fetchOne(db, sql: "SELECT * FROM syncState") else { return nil }
            return row.description
        }
        return mark ?? nil
    }

    /// Leaves what this connection wrote in the WAL when it closes, for the next writer that
    /// records something of its own to fold in, or the next connection that leaves more than
    /// ``keptWALFrames``.
    ///
    /// Folding costs two `fdatasync`s (the WAL, then the file). Events read from other
    /// devices' journals, committed with the read position that names them, can be read
    /// again, so they need no sync: after a power cut the file is as the last fold left it,
    /// and the journals are read again from there.
    private func keepWALOnClose() {
        queue.inDatabase { $0.keepWALOnClose() }
    }

    /// The most frames a closing connection leaves in the WAL (about 512 KB). Each process
    /// that opens the history next reads every frame the WAL holds to rebuild its index (two
    /// reads a frame), which `today` pays at every prompt: past this, closing folds them in.
    static let keptWALFrames = 128

    /// Runs `body` again while SQLite answers that the file is busy in a way its busy
    /// timeout does not cover, for up to about five seconds.
    static func retryingWhenBusy<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .busy && attempt < 250 {
                attempt += 1
                usleep(20_000)
            }
        }
    }

    /// SQLite's first complaint about the file's structure (`PRAGMA quick_check`), or nil
    /// when it finds none.
    func firstIntegrityProblem() throws(HistoryError) -> String? {
        do {
            return try queue.read { try Self.firstIntegrityProblem($0) }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    static func firstIntegrityProblem(_ db: Database) throws -> String? {
        let answer = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
        if answer == "ok" { return nil }
        // Without SQLite's "*** in database main ***" heading.
        return answer.split(separator: "\n").filter { !$0.hasPrefix("*** ") }.joined(separator: "; ")
    }

    static func classify(_ error: any Error, path: String) -> HistoryError {
        if let error = error as? HistoryError { return error }
        if let error = error as? DatabaseError {
            // The header was read before SQLite was let in: a file that starts as SQLite and
            // then is not, or is malformed further in, is a damaged history.
            if error.resultCode == .notADatabase || error.resultCode == .corrupt
                || error.extendedResultCode == .ioErrorShortRead
            {
                return .damaged(path: path, reason: (error.message ?? "\(error.resultCode)").lowercased())
            }
            let reason = (error.message ?? "\(error.resultCode)").lowercased()
            if error.resultCode == .ioError || error.resultCode == .full, diskIsFull(path) {
                return .unavailable(path: path, reason: "the disk is full (\(reason)); free some space and try again")
            }
            return .unavailable(path: path, reason: reason)
        }
        return .unavailable(path: path, reason: "\(error)")
    }

    /// Whether the file system that holds `path` has no room left for this user.
    static func diskIsFull(_ path: String) -> Bool {
        let folder = folderPath(of: path)
        var info = statvfs()
        return statvfs(folder, &info) == 0 && info.f_bavail == 0
    }

    /// The folder `path` is in ("." for a bare name), split by bytes: a slash followed by a
    /// combining mark is one Character, but still a slash.
    static func folderPath(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
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

extension HistoryStore {
    /// What a store knows of its file and owes it at closing.
    struct Flags {
        /// Whether the file has the columns of logs (v5); a read-only file of an older schema,
        /// which is read without migrating, has not.
        var hasLogColumns = true
        /// Whether its amendments may hold a question's answer (v7); see ``hasLogColumns``.
        var hasAnswerAmendments = true
        /// Whether this history is a member of a sync folder: each write then goes to the journal.
        var syncOn = false
        /// Whether opening found no sync's tables, so that the sync on opening has nothing to ask.
        var syncKnownOff = false
        /// What the sync on opening brought in, for `routine sync` to say.
        var syncArrived: [SyncArrival] = []
        /// Whether this writer's file was sound when opened (checked, stamped, or new): closing
        /// it cleanly then stamps it, so that the next writer need not check it again.
        var stampsOnClose = false
        /// Whether opening ran `quick_check` over the whole file (a stamp spared it otherwise).
        var checkedWhole = false
        /// Whether this is a writable connection to a file, whose closing may fold the WAL in.
        var isWriter = false
        /// Whether closing folds the WAL into the file, synced: after this program's own records
        /// (a log, a run's step, a change, an import), a new or migrated file, or a change of
        /// what this device is and wrote (see ``HistoryStore/journalMark()``). Not after events read from other
        /// devices' journals alone.
        var foldsOnClose = false
    }
}
