import CSQLite
import FoundationEssentials
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Where this history syncs, and as which device.
public struct SyncSettings: Hashable, Sendable {
    public var folder: String
    /// 32 hexadecimal digits, the name of this device's folder in the sync folder.
    public var device: String
    public var name: String
}

/// What a sync brought in from one device.
public struct SyncArrival: Hashable, Sendable {
    public var device: String
    public var runs = 0, logs = 0, deletions = 0, daysOff = 0

    public var isEmpty: Bool { runs + logs + deletions + daysOff == 0 }
}

/// What a sync did: what came in from whom, and what it could not read.
public struct SyncReport: Sendable {
    public var arrivals: [SyncArrival] = []
    /// Events this device wrote to its journal.
    public var written = 0
    /// Lines and files that could not be read, each said once.
    public var problems: [Diagnostic] = []
}

/// One device as `sync status` lists it.
public struct SyncDevice: Hashable, Sendable {
    public var id: String
    public var name: String
    /// Its newest event's time, and how many of its events this history has.
    public var lastEvent: String?
    public var events: Int
    public var highestSequence: Int64
}

/// `sync status`: the devices, what this one has not written yet, and what could not be read.
public struct SyncStatus: Sendable {
    public var settings: SyncSettings
    public var devices: [SyncDevice]
    public var unwritten: Int
    public var problems: [String]
}

extension HistoryStore {
    /// Where this history's warnings about the sync folder go (a line that cannot be read,
    /// another device writing with this one's id): each is said once, by the command that met it.
    nonisolated(unsafe) public static var syncWarning: (Diagnostic) -> Void = { _ in }

    /// The sync settings, or nil when this history is not a member of a sync folder.
    public func syncSettings() throws(HistoryError) -> SyncSettings? {
        try read { db in try Self.syncSettings(db) }
    }

    /// Read with SQLite's own calls, as all of the quick look that `today` makes at every
    /// prompt: no `Row` is copied for a few values.
    static func syncSettings(_ db: Database) throws -> SyncSettings? {
        guard try SyncSchema.isInstalled(db) else { return nil }
        var settings: SyncSettings?
        try db.forEachRawRow("SELECT folder, device, name FROM syncState", arguments: []) { raw in
            settings = SyncSettings(folder: columnText(raw, 0) ?? "", device: columnText(raw, 1) ?? "", name: columnText(raw, 2) ?? "")
        }
        return settings
    }

    /// Makes this history a member of the sync folder `folder` (created when missing, mode
    /// 0700) as a new device: its whole history goes into its journal, then everyone's
    /// journals are read. Joining again keeps the device and changes its folder or name.
    public func joinSync(folder: String, name: String) throws(HistoryError) -> SyncReport {
        if let problem = SyncJournal.makeFolder(folder) { throw .unavailable(path: folder, reason: problem) }
        let existing = try syncSettings()
        let device = existing?.device ?? SyncEvent.newID()
        if let problem = SyncJournal.makeFolder(folder + "/" + device) { throw .unavailable(path: folder + "/" + device, reason: problem) }
        try transaction { db in
            try SyncSchema.install(db, folder: folder, device: device, name: name)
            try db.execute(sql: "INSERT OR IGNORE INTO syncOutbox SELECT 'run', routine, date, startedAt FROM run")
            try db.execute(sql: "INSERT OR IGNORE INTO syncOutbox SELECT 'day', routine, date, '' FROM dayOff")
            if existing?.name != name {
                try Self.emit(.device, payload: JSONValue.string(name).text, key: "", device: device, db)
            }
        }
        syncOn = true
        return try syncNow()
    }

    /// Stops syncing: the history forgets the folder, its device and what it read. The
    /// journals stay where they are. False when it was not a member.
    public func leaveSync() throws(HistoryError) -> Bool {
        syncOn = false
        return try transaction { db in
            guard try SyncSchema.isInstalled(db) else { return false }
            try SyncSchema.remove(db)
            return true
        }
    }

    /// Writes what this device has not written yet, then reads what is new in the other
    /// devices' journals.
    public func syncNow() throws(HistoryError) -> SyncReport {
        guard let settings = try syncSettings() else { return SyncReport() }
        var report = SyncReport(arrivals: syncArrived)
        syncArrived = []
        report.written = try drainOutbox()
        try catchUp(settings, all: false, into: &report)
        return report
    }

    /// The devices of the folder and what this history has of each.
    public func syncStatus() throws(HistoryError) -> SyncStatus? {
        try read { db in
            guard let settings = try Self.syncSettings(db) else { return nil }
            var devices: [SyncDevice] = []
            let names = try Self.deviceNames(db)
            let sql = "SELECT device, max(at), count(*), max(seq) FROM syncEvent WHERE written = 1 GROUP BY device ORDER BY device"
            for row in try Row.fetchAll(db, sql: sql) {
                let id: String = row[0]
                devices.append(SyncDevice(id: id, name: names[id] ?? "", lastEvent: row[1], events: row[2], highestSequence: row[3]))
            }
            let unwritten =
                try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM syncOutbox) + (SELECT count(*) FROM syncEvent WHERE written = 0)") ?? 0
            let problems = try Row.fetchAll(db, sql: "SELECT path, line, reason FROM syncProblem ORDER BY path, line").map { row in
                "\(row[0] as String) line \(row[1] as Int): \(row[2] as String)"
            }
            return SyncStatus(settings: settings, devices: devices, unwritten: unwritten, problems: problems)
        }
    }

    static func deviceNames(_ db: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        var newest: [String: Int64] = [:]
        // By family, which the key's index covers: by type, every event's payload was read.
        for row in try Row.fetchAll(db, sql: "SELECT device, seq, payload FROM syncEvent WHERE family = 'device'") {
            let (device, seq, payload): (String, Int64, String) = (row[0], row[1], row[2])
            guard seq >= newest[device] ?? 0 else { continue }
            newest[device] = seq
            names[device] = (try? JSONDecoder().decode(String.self, from: Data(payload.utf8))) ?? ""
        }
        return names
    }

    /// Called once a store is open: a member of a sync folder writes what it owes and reads
    /// what changed. Nothing but two queries and a `stat` or two per device when nothing did.
    func syncAfterOpen(readOnly: Bool) {
        if syncKnownOff { return }
        // One read transaction for all a status bar's `today` asks before it knows nothing changed.
        let state: (SyncSettings, Bool, Looked)?? = try? read { db in
            guard let settings = try Self.syncSettings(db) else { return nil }
            let sql = "SELECT 1 WHERE EXISTS (SELECT 1 FROM syncOutbox) OR EXISTS (SELECT 1 FROM syncEvent WHERE written = 0)"
            return (settings, try db.hasRow(sql), try Self.looked(db))
        }
        guard let state, let (settings, pending, looked) = state else { return }
        if !readOnly { syncOn = true }
        guard pending || folderMayHaveNews(settings, looked) else { return }
        do {
            // A reader's connection may be read-only: the sync writes through its own.
            let writer = readOnly ? try Self.openStore(path, create: false) : self
            guard let writer else { return }
            syncArrived = try writer.syncNow().arrivals
        } catch {
            Self.syncWarning(.syncUnavailable(settings.folder, reason: error.description))
        }
    }

    /// Called after each of the history's transactions.
    func syncAfterWrite() {
        do {
            _ = try drainOutbox()
        } catch {
            Self.syncWarning(.syncUnavailable((try? syncSettings())??.folder ?? path, reason: error.description))
        }
    }

    // MARK: Writing this device's events

    /// Turns the keys the triggers collected into events, then appends the events not yet in
    /// the journal to it. Returns how many lines were written.
    func drainOutbox() throws(HistoryError) -> Int {
        let settings: SyncSettings? = try transaction { db in
            guard let settings = try Self.syncSettings(db) else { return nil }
            let keys = try Row.fetchAll(db, sql: "SELECT family, routine, date, startedAt FROM syncOutbox")
            guard !keys.isEmpty else { return settings }
            try db.execute(sql: "UPDATE syncState SET importing = 1")
            try SyncSchema.applying(keys: keys.count, db) {
                for row in keys {
                    let (family, routine, date, started): (String, String, String, String) = (row[0], row[1], row[2], row[3])
                    if family == "run" {
                        try outgoingRun(routine: routine, date: date, started: started, device: settings.device, db)
                    } else {
                        try outgoingDay(routine: routine, date: date, device: settings.device, db)
                    }
                }
            }
            try db.execute(sql: "DELETE FROM syncOutbox")
            try db.execute(sql: "UPDATE syncState SET importing = 0")
            return settings
        }
        guard let settings else { return 0 }
        return try writeJournal(settings)
    }

    private func outgoingRun(routine: String, date: String, started: String, device: String, _ db: Database) throws {
        let key = SyncEvent.runKey(routine: routine, date: date, started: started)
        let reference = SyncEvent.runReference(routine: routine, date: date, started: started)
        let local = try Self.localRun(routine: routine, date: date, started: started, db, self)
        var merged = try SyncMerge.run(key, db)
        guard let local else {
            if merged.run != nil { try Self.emit(.delete, payload: reference, key: key, device: device, db) }
            return
        }
        let text = HistoryJSON.encode(local).text
        if merged.deleted {
            // Put back: the run returns with what the devices hold of it, amendments made
            // elsewhere while it was gone included.
            try Self.emit(.restore, payload: reference, key: key, device: device, db)
            merged = try SyncMerge.run(key, db)
        } else if merged.run.map({ HistoryJSON.encode($0).text }) != text {
            try Self.emit(.run, payload: text, key: key, device: device, db)
            merged = try SyncMerge.run(key, db)
        }
        if !merged.hasContent { try Self.emit(.run, payload: text, key: key, device: device, db) }
        _ = try Self.setLocalRun(routine: routine, date: date, started: started, to: try SyncMerge.run(key, db).run, db, self)
    }

    private func outgoingDay(routine: String, date: String, device: String, _ db: Database) throws {
        let key = SyncEvent.dayKey(routine: routine, date: date)
        let local = try Self.localDay(routine: routine, date: date, db)
        let merged = try SyncMerge.day(key, db)
        if local == merged { return }
        if let local {
            try Self.emit(.dayOff, payload: HistoryJSON.encode(local).text, key: key, device: device, db)
        } else {
            try Self.emit(.dayOn, payload: SyncEvent.dayReference(routine: routine, date: date), key: key, device: device, db)
        }
        _ = try Self.setLocalDay(routine: routine, date: date, to: try SyncMerge.day(key, db), db)
    }

    static func emit(_ kind: SyncEvent.Kind, payload: String, key: String, device: String, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE syncState SET seq = seq + 1").execute()
        let seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM syncState")) ?? 1
        try db.cachedStatement(
            sql: "INSERT INTO syncEvent (id, device, seq, at, type, family, key, payload, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)"
        ).execute(arguments: [SyncEvent.newID(), device, seq, Timestamp.now().description, kind.rawValue, kind.family, key, payload])
    }

    /// Appends the events not yet written, by month of their time. Before appending, the
    /// file must be as this device left it: anything else was written by another device with
    /// this device's id (a copied history), and this one takes a new id.
    private func writeJournal(_ settings: SyncSettings) throws(HistoryError) -> Int {
        var settings = settings
        try rewriteMissingJournal(settings)
        let pending = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, seq, at, type, key, payload FROM syncEvent WHERE written = 0 ORDER BY seq").map { row in
                SyncEvent(
                    id: row[0], device: settings.device, seq: row[1], at: Timestamp(row[2] as String) ?? .now(),
                    kind: SyncEvent.Kind(rawValue: row[3]) ?? .run, payload: row[5], key: row[4])
            }
        }
        guard !pending.isEmpty else { return 0 }
        if let copy = try copyWritesAsThisDevice(settings, pending: pending) {
            Self.syncWarning(.syncDeviceCopied(settings.device, file: copy))
            settings.device = try reidentify(settings)
            return try writeJournal(settings)
        }
        var months: [(String, [SyncEvent])] = []
        for event in pending {
            let month = String(event.at.description.prefix(7))
            if months.last?.0 == month { months[months.count - 1].1.append(event) } else { months.append((month, [event])) }
        }
        var written = 0
        for (month, events) in months {
            let relative = settings.device + "/" + month + ".jsonl"
            let file = settings.folder + "/" + relative
            if let problem = SyncJournal.makeFolder(settings.folder + "/" + settings.device) { throw .unavailable(path: file, reason: problem) }
            switch SyncJournal.append(events.map(\.line), to: file) {
            case .failure(let failure): throw .unavailable(path: file, reason: failure.reason)
            case .success(let sizes):
                try transaction { db in
                    let mark = try db.cachedStatement(sql: "UPDATE syncEvent SET written = 1 WHERE id = ?")
                    for event in events { try mark.execute(arguments: [event.id]) }
                    try db.execute(sql: "UPDATE syncState SET journal = ?, journalSize = ?", arguments: [relative, sizes.after])
                }
                written += events.count
            }
        }
        return written
    }

    /// The file this device last appended to is gone (deleted by hand, or by an engine
    /// carrying a deletion from another machine): its events of that month are written again
    /// under their own ids and sequence numbers, so the journals stay complete. A reader
    /// passes over the lines it already has, and so does one reading the file if it comes back.
    private func rewriteMissingJournal(_ settings: SyncSettings) throws(HistoryError) {
        let (last, size): (String?, Int64?) = try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT journal, journalSize FROM syncState")
            return (row?[0], row?[1])
        }
        let prefix = settings.device + "/"
        // Only a file gone from a device folder that is there: a folder that cannot be
        // reached (unmounted, replaced) is no deletion, and its events are owed as they are.
        var info = stat()
        guard let last, last.hasPrefix(prefix), (size ?? 0) > 0,
            stat(settings.folder + "/" + settings.device, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
            stat(settings.folder + "/" + last, &info) != 0
        else { return }
        let month = String(last.dropFirst(prefix.count).prefix(7))
        try transaction { db in
            try db.execute(sql: "UPDATE syncEvent SET written = 0 WHERE device = ? AND substr(at, 1, 7) = ?", arguments: [settings.device, month])
            try db.execute(sql: "UPDATE syncState SET journal = NULL, journalSize = NULL")
        }
    }

    /// The journal file of this device's id that holds lines this history did not write, or nil.
    private func copyWritesAsThisDevice(_ settings: SyncSettings, pending: [SyncEvent]) throws(HistoryError) -> String? {
        let (last, size): (String?, Int64?) = try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT journal, journalSize FROM syncState")
            return (row?[0], row?[1])
        }
        let mine = Set(pending.map(\.id))
        // The file last appended to, and those about to be: older months are never written again.
        var paths = Set(pending.map { settings.device + "/" + $0.at.description.prefix(7) + ".jsonl" })
        if let last { paths.insert(last) }
        for path in paths {
            let from = path == last ? (size ?? 0) : 0
            guard let info = SyncJournal.kind(settings.folder + "/" + path) else { continue }
            let file = SyncJournal.FileState(path: path, inode: info.inode, size: info.size)
            if file.size == from { continue }
            // Lines past what this device recorded may be its own, written just before a
            // crash kept it from saying so.
            guard file.size > from, case .success(let bytes) = SyncJournal.read(settings.folder + "/" + file.path, from: from) else {
                return file.path
            }
            let foreign = bytes.split(separator: 0x0A).contains { line in
                guard let event = try? SyncEvent.parse(line) else { return true }
                return !mine.contains(event.id) && event.device == settings.device
                    && (try? read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM syncEvent WHERE id = ?", arguments: [event.id]) }) != true
            }
            if foreign { return file.path }
        }
        return nil
    }

    /// A new device id for this history; its events not yet written move to it. What it
    /// wrote under the old id stays there, read from now on as another device's.
    private func reidentify(_ settings: SyncSettings) throws(HistoryError) -> String {
        let device = SyncEvent.newID()
        if let problem = SyncJournal.makeFolder(settings.folder + "/" + device) {
            throw .unavailable(path: settings.folder + "/" + device, reason: problem)
        }
        try transaction { db in
            try db.execute(sql: "UPDATE syncState SET device = ?, journal = NULL, journalSize = NULL", arguments: [device])
            try db.execute(sql: "UPDATE syncEvent SET device = ? WHERE written = 0", arguments: [device])
            try Self.emit(.device, payload: JSONValue.string(settings.name).text, key: "", device: device, db)
        }
        return device
    }

    // MARK: Reading the other devices' events

    /// One look at every journal file: those whose inode or size differ from what this history
    /// last read, and the folders' states, to record when they differ from those recorded.
    func changedFiles(_ settings: SyncSettings, all: Bool) throws(HistoryError) -> (
        files: [SyncJournal.FileState], folders: [SyncJournal.FolderState]?
    ) {
        let (known, recorded): ([String: (UInt64, Int64)], [SyncJournal.FolderState]?) = try read { db in
            var known: [String: (UInt64, Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, inode, size FROM syncFile") {
                known[row[0]] = (UInt64(bitPattern: row[1] as Int64), row[2])
            }
            return (known, try Self.recordedFolders(db))
        }
        let listing = SyncJournal.listing(in: settings.folder, except: all ? nil : settings.device)
        let files = listing.files.filter { file in
            guard let (inode, size) = known[file.path] else { return true }
            return inode != file.inode || size != file.size
        }
        // A folder that cannot be reached records nothing: the next command looks again.
        return (files, listing.folders.isEmpty || recorded.map(Set.init) == Set(listing.folders) ? nil : listing.folders)
    }

    /// The folder states the last full look recorded; nil before the first (or in a history
    /// that joined before they were kept).
    /// An array, not a set: the first `Set` of a type in a process looks up the type's
    /// `Hashable` conformance among all the program's, a tenth of a millisecond.
    static func recordedFolders(_ db: Database) throws -> [SyncJournal.FolderState]? {
        // Asked of the main schema alone, by the exact name: the quick look of every prompt.
        guard try db.hasRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'syncFolder'") else { return nil }
        var folders: [SyncJournal.FolderState] = []
        try db.forEachRawRow("SELECT path, inode, changed FROM syncFolder", arguments: []) { raw in
            folders.append(
                SyncJournal.FolderState(
                    path: columnText(raw, 0) ?? "", inode: UInt64(bitPattern: sqlite3_column_int64(raw, 1)), changed: sqlite3_column_int64(raw, 2)))
        }
        return folders.isEmpty ? nil : folders
    }

    /// Whether the folder may hold lines this history has not read, at a cost bounded by the
    /// devices rather than by their files (docs/sync.md, "When"): the sync folder and each
    /// device folder are `stat`ed, and in a folder whose state is as recorded only the files
    /// that can still grow in place, each device's newest month and any file whose last line
    /// was incomplete. A folder whose state changed is listed, and its files compared.
    func folderMayHaveNews(_ settings: SyncSettings) -> Bool {
        guard let looked = try? read({ db in try Self.looked(db) }) else { return true }
        return folderMayHaveNews(settings, looked)
    }

    /// What the last look recorded: the folders' states, and each file's state and offset read.
    struct Looked {
        struct Known {
            var inode: UInt64
            var size, offset: Int64
        }

        var folders: [SyncJournal.FolderState]?
        var files: [String: Known]
    }

    static func looked(_ db: Database) throws -> Looked {
        var known: [String: Looked.Known] = [:]
        try db.forEachRawRow("SELECT path, inode, size, offset FROM syncFile", arguments: []) { raw in
            known[columnText(raw, 0) ?? ""] = Looked.Known(
                inode: UInt64(bitPattern: sqlite3_column_int64(raw, 1)), size: sqlite3_column_int64(raw, 2), offset: sqlite3_column_int64(raw, 3))
        }
        return Looked(folders: try recordedFolders(db), files: known)
    }

    private func folderMayHaveNews(_ settings: SyncSettings, _ looked: Looked) -> Bool {
        guard let recordedFolders = looked.folders else { return true }
        let known = looked.files
        let folders = Dictionary(recordedFolders.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        func same(_ path: String, _ info: SyncJournal.Info?) -> Bool {
            guard let info, info.isDirectory, let state = folders[path] else { return false }
            return state.inode == info.inode && state.changed == info.changed
        }
        func unchanged(_ path: String) -> Bool {
            guard let file = SyncJournal.kind(settings.folder + "/" + path), file.isFile, let old = known[path] else { return false }
            return old.inode == file.inode && old.size == file.size
        }
        // Each device's newest month, and the files with a line not yet whole.
        var watched: [String: [String]] = [:]
        var newest: [String: String] = [:]
        for (path, file) in known {
            guard let slash = path.firstIndex(of: "/") else { continue }
            let device = String(path[..<slash])
            if file.offset < file.size { watched[device, default: []].append(path) }
            if SyncJournal.isMonth(path[path.index(after: slash)...]), path > newest[device] ?? "" { newest[device] = path }
        }
        let devices: [String]
        if same("", SyncJournal.kind(settings.folder, follow: true)) {
            devices = folders.keys.filter { !$0.isEmpty }
        } else {
            devices = SyncJournal.names(in: settings.folder).filter { SyncEvent.isID($0.utf8) && $0 != settings.device }
        }
        for device in devices {
            let info = SyncJournal.kind(settings.folder + "/" + device)
            if same(device, info) {
                for path in (watched[device] ?? []) + (newest[device].map { [$0] } ?? []) where !unchanged(path) { return true }
            } else {
                // A new device, or one whose folder changed: every file of it is compared.
                // A folder gone is nothing to read, but a full look records it gone.
                guard info?.isDirectory == true else {
                    if folders[device] != nil { return true }
                    continue
                }
                for file in SyncJournal.files(of: device, in: settings.folder)
                where known[file.path].map({ $0.inode != file.inode || $0.size != file.size }) ?? true {
                    return true
                }
            }
        }
        return false
    }

    /// Reads the new lines of every changed journal file and applies the events they bring,
    /// in one transaction.
    func catchUp(_ settings: SyncSettings, all: Bool, into report: inout SyncReport) throws(HistoryError) {
        let (changed, folders) = try changedFiles(settings, all: all)
        guard !changed.isEmpty || folders != nil else { return }
        var warnings: [Diagnostic] = []
        // A reading of megabytes (a join) writes more pages than SQLite's cache of 2 MB holds:
        // spilled pages are written to the WAL mid-transaction and read back. Its cache may grow
        // to 64 MB for the reading; memory is taken only as pages are. Its rows are written
        // parent first, without SQLite's foreign key lookups, and its lines are parsed before
        // the transaction, half of them on another core.
        let large = changed.reduce(0) { $0 + $1.size } > 1 << 20
        let early = large ? try parseAhead(changed, settings) : [:]
        let arrivals: [SyncArrival] = try transaction(checkingForeignKeys: !large) { db in
            let cache = large ? try Int.fetchOne(db, sql: "PRAGMA cache_size") : nil
            if large { try db.execute(sql: "PRAGMA cache_size = -65536") }
            defer { if let cache { try? db.execute(sql: "PRAGMA cache_size = \(cache)") } }
            if let folders { try SyncSchema.record(folders, db) }
            try db.execute(sql: "UPDATE syncState SET importing = 1")
            // Statements compiled once for the whole reading: a join inserts tens of thousands.
            let known = try db.cachedStatement(sql: "SELECT inode, offset, lines FROM syncFile WHERE path = ?")
            let record = try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncFile (path, inode, size, offset, lines) VALUES (?, ?, ?, ?, ?)")
            var touched: [(family: String, key: String, device: String)] = []
            // The runs of the events taken in, by id: applying them reads no payload back.
            var decoded: [String: StoredRun] = [:]
            for file in changed {
                let row = try Row.fetchOne(known, arguments: [file.path])
                let start = JournalLines.start(of: file, recorded: row.map { (UInt64(bitPattern: $0[0] as Int64), $0[1], $0[2]) })
                // Parsed ahead from where the history stood then; another reader may have moved it since.
                let journal = early[file.path].flatMap { $0.start == start ? $0 : nil } ?? JournalLines.read(file, from: start, settings.folder)
                let full = settings.folder + "/" + file.path
                if let reason = journal.failure {
                    if try Self.noteProblem(file.path, line: 0, reason: reason, db) { warnings.append(.syncUnreadable(full, reason: reason)) }
                    continue
                }
                for (line, parsed) in journal.lines {
                    let event: SyncEvent
                    switch parsed {
                    case .success(let read): event = read
                    case .failure(let error):
                        if try Self.noteProblem(file.path, line: line, reason: error.reason, db) {
                            warnings.append(.syncBadLine(full, line: line, reason: error.reason))
                        }
                        continue
                    }
                    try db.executeRaw(
                        "INSERT OR IGNORE INTO syncEvent (id, device, seq, at, type, family, key, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    ) {
                        row in
                        row.text(event.id)
                        row.text(event.device)
                        row.int(event.seq)
                        row.text(event.at.description)
                        row.text(event.kind.rawValue)
                        row.text(event.kind.family)
                        row.text(event.key)
                        row.text(event.payload)
                    }
                    guard db.changesCount > 0, event.kind != .device else { continue }
                    touched.append((event.kind.family, event.key, event.device))
                    if let run = event.run { decoded[event.id] = run }
                }
                try record.execute(arguments: [
                    file.path, Int64(bitPattern: file.inode), file.size, journal.start.offset + Int64(journal.consumed),
                    journal.start.line + journal.linesRead,
                ])
            }
            let arrivals = try SyncSchema.applying(keys: touched.count, db) { try apply(touched, decoded, db) }
            try db.execute(sql: "UPDATE syncState SET importing = 0")
            return arrivals
        }
        for warning in warnings { Self.syncWarning(warning) }
        report.problems += warnings
        report.arrivals += arrivals
    }

    /// The new lines of `changed`, parsed from where this history last stopped in each, on
    /// two threads that take the files one at a time.
    private func parseAhead(_ changed: [SyncJournal.FileState], _ settings: SyncSettings) throws(HistoryError) -> [String: JournalLines] {
        let recorded: [String: (UInt64, Int64, Int)] = try read { db in
            var rows: [String: (UInt64, Int64, Int)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, inode, offset, lines FROM syncFile") {
                rows[row[0]] = (UInt64(bitPattern: row[1] as Int64), row[2], row[3])
            }
            return rows
        }
        let jobs = changed.map { ($0, JournalLines.start(of: $0, recorded: recorded[$0.path])) }
        let (folder, next) = (settings.folder, NextIndex())
        let work: @Sendable () -> [JournalLines] = {
            var done: [JournalLines] = []
            while let k = next.take(below: jobs.count) { done.append(JournalLines.read(jobs[k].0, from: jobs[k].1, folder)) }
            return done
        }
        let (side, main) = alongside(work, work)
        var parsed: [String: JournalLines] = [:]
        for lines in side + main { parsed[lines.path] = lines }
        return parsed
    }

    /// Sets every key the new events are about to what all the events say, and counts what
    /// changed by the device that sent it.
    private func apply(_ touched: [(family: String, key: String, device: String)], _ decoded: [String: StoredRun], _ db: Database) throws
        -> [SyncArrival]
    {
        let names = try Self.deviceNames(db)
        var arrivals: [String: SyncArrival] = [:]
        var order: [String] = []
        var seen = Set<String>()
        for item in touched where seen.insert(item.family + item.key).inserted {
            let parts = SyncEvent.keyParts(item.key)
            var arrival = arrivals[item.device] ?? SyncArrival(device: names[item.device] ?? item.device)
            if item.family == "run", parts.count == 3 {
                let merged = try SyncMerge.run(item.key, db, decoded: decoded).run
                guard try Self.setLocalRun(routine: parts[0], date: parts[1], started: parts[2], to: merged, db, self) else { continue }
                if merged == nil { arrival.deletions += 1 } else if merged?.kind == .log { arrival.logs += 1 } else { arrival.runs += 1 }
            } else if item.family == "day", parts.count == 2 {
                guard try Self.setLocalDay(routine: parts[0], date: parts[1], to: try SyncMerge.day(item.key, db), db) else { continue }
                arrival.daysOff += 1
            } else {
                continue
            }
            if arrivals[item.device] == nil { order.append(item.device) }
            arrivals[item.device] = arrival
        }
        return order.compactMap { arrivals[$0] }
    }

    /// Records a problem; true the first time it is met.
    private static func noteProblem(_ path: String, line: Int, reason: String, _ db: Database) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO syncProblem (path, line, reason) VALUES (?, ?, ?)", arguments: [path, line, reason])
        return db.changesCount > 0
    }

    // MARK: Rebuilding

    /// Fills this history, which must be new, from the journals of `folder` alone: every
    /// device's, this one's included. The sync tables are gone again afterwards.
    public func rebuild(fromSync folder: String) throws(HistoryError) -> SyncReport {
        try transaction { db in try SyncSchema.install(db, folder: folder, device: String(repeating: "0", count: 32), name: "") }
        var report = SyncReport()
        try catchUp(SyncSettings(folder: folder, device: String(repeating: "0", count: 32), name: ""), all: true, into: &report)
        _ = try leaveSync()
        return report
    }
}
