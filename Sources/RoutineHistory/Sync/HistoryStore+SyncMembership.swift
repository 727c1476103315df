import FoundationEssentials
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Joining and leaving a sync folder, what `sync status` says, and the sync each command makes
/// when it opens the history and after each of its writes.
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
        try db.forEachRow("SELECT folder, device, name FROM syncState", arguments: []) { row in
            settings = SyncSettings(folder: row.text(0) ?? "", device: row.text(1) ?? "", name: row.text(2) ?? "")
        }
        return settings
    }

    /// Makes this history a member of the sync folder `folder` (created when missing, mode
    /// 0700) as a new device: its whole history goes into its journal, then everyone's
    /// journals are read. Joining again, after leaving too, keeps the device's id and its
    /// sequence, and changes its folder or name; what its folder already holds of it is its
    /// own, not written twice.
    public func joinSync(folder: String, name: String) throws(HistoryError) -> SyncReport {
        if let problem = SyncJournal.makeFolder(folder) { throw .unavailable(path: folder, reason: problem) }
        let existing = try syncSettings()
        let identity = try read { db in try SyncSchema.identity(db) }
        let device = existing?.device ?? identity?.device ?? SyncEvent.newID()
        if let problem = SyncJournal.makeFolder(folder + "/" + device) { throw .unavailable(path: folder + "/" + device, reason: problem) }
        // Only a device that left adopts what its folder holds of it: a member joining again
        // (a copied history among them) finds there only what it wrote, or a copy's lines.
        let own = (existing != nil ? [] : SyncJournal.files(of: device, in: folder)).map {
            JournalLines.read($0, from: JournalLines.Start(offset: 0, line: 0), folder)
        }
        try writeWithoutSync { db in
            try SyncSchema.install(db, folder: folder, device: device, name: name)
            if existing == nil, let identity, identity.device == device {
                try db.execute(sql: "UPDATE syncState SET seq = max(seq, ?)", arguments: [identity.seq])
            }
            // What this device wrote to the folder before it left is its own.
            for journal in own {
                for case (_, .success(let event)) in journal.lines {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO syncEvent (id, device, seq, at, type, family, key, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        arguments: [
                            event.id, event.device, event.seq, event.at.description, event.kind.rawValue, event.kind.family, event.key,
                            event.payload,
                        ])
                }
            }
            try db.execute(
                sql: "UPDATE syncState SET seq = max(seq, coalesce((SELECT max(seq) FROM syncEvent WHERE device = ?), 0))", arguments: [device])
            try db.execute(sql: "INSERT OR IGNORE INTO syncOutbox SELECT 'run', routine, date, startedAt FROM run")
            try db.execute(sql: "INSERT OR IGNORE INTO syncOutbox SELECT 'day', routine, date, '' FROM dayOff")
            if existing?.name != name {
                try Self.emit(.device, payload: JSONValue.string(name).text, key: "", device: device, db)
            }
        }
        flags.syncOn = true
        return try syncNow()
    }

    /// Stops syncing: the history forgets the folder, its device and what it read. The
    /// journals stay where they are. False when it was not a member.
    public func leaveSync() throws(HistoryError) -> Bool {
        flags.syncOn = false
        return try writeWithoutSync { db in
            guard try SyncSchema.isInstalled(db) else { return false }
            try SyncSchema.remove(db)
            return true
        }
    }

    /// Writes what this device has not written yet, then reads what is new in the other
    /// devices' journals.
    public func syncNow() throws(HistoryError) -> SyncReport {
        guard try syncSettings() != nil else { return SyncReport() }
        try writeWithoutSync { db in try SyncSchema.upgrade(db) }
        var report = SyncReport(arrivals: flags.syncArrived)
        flags.syncArrived = []
        // A journal that cannot be written keeps nothing from being read.
        var unwritable: HistoryError?
        do { report.written = try drainOutbox() } catch { unwritable = error }
        guard var settings = try syncSettings() else { return report }
        // The own folder first: a copied history found there changes this device's id, and
        // the old folder is then read with the others.
        if unwritable == nil { settings = try checkOwnJournal(settings) }
        try catchUp(settings, all: false, into: &report)
        if let unwritable { throw unwritable }
        // What the own folder lacked is written again.
        report.written += try writeJournal()
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
            let problems = try Row.fetchAll(db, sql: "SELECT path, line, reason FROM syncProblem ORDER BY path, line = -1, line").map { row in
                let (path, line, reason): (String, Int, String) = (row[0], row[1], row[2])
                return line == -1 ? "\(path): \(reason) lines in all" : line == 0 ? "\(path): \(reason)" : "\(path) line \(line): \(reason)"
            }
            var held: [SyncHeldEvents] = []
            if try db.hasTable(named: "syncHeld") {
                let now = Timestamp.now().milliseconds
                for row in try Row.fetchAll(db, sql: "SELECT device, count(*), min(at) FROM syncHeld GROUP BY device ORDER BY device") {
                    let (id, count, at): (String, Int, String) = (row[0], row[1], row[2])
                    let ahead = Int(((Timestamp(at)?.milliseconds ?? now) - now) / 86_400_000)
                    let name = names[id].flatMap { $0.isEmpty ? nil : $0 } ?? id
                    held.append(SyncHeldEvents(device: name, count: count, daysAhead: max(1, ahead)))
                }
            }
            return SyncStatus(settings: settings, devices: devices, unwritten: unwritten, problems: problems, held: held)
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
            names[device] = (try? JSONParser.parse(Array(payload.utf8)))?.string ?? ""
        }
        return names
    }

    /// Called once a store is open: a member of a sync folder writes what it owes and reads
    /// what changed. Nothing but two queries and a `stat` or two per device when nothing did.
    func syncAfterOpen(readOnly: Bool) {
        if flags.syncKnownOff { return }
        // One read transaction for all a status bar's `today` asks before it knows nothing changed.
        let state: (SyncSettings, Bool, Looked)?? = try? read { db in
            guard let settings = try Self.syncSettings(db) else { return nil }
            let sql = "SELECT 1 WHERE EXISTS (SELECT 1 FROM syncOutbox) OR EXISTS (SELECT 1 FROM syncEvent WHERE written = 0)"
            return (settings, try db.hasRow(sql), try Self.looked(db))
        }
        guard let state, let (settings, pending, looked) = state else { return }
        if !readOnly { flags.syncOn = true }
        guard pending || folderMayHaveNews(settings, looked) else { return }
        do {
            // A reader's connection may be read-only: the sync writes through its own.
            let writer = readOnly ? try Self.openStore(path, create: false) : self
            guard let writer else { return }
            flags.syncArrived = try writer.syncNow().arrivals
        } catch {
            Self.warnUnavailable(
                pending
                    ? .syncNotInJournal(settings.folder, reason: Self.reason(error)) : .syncUnavailable(settings.folder, reason: Self.reason(error)))
        }
    }

    /// Called after each of the history's transactions.
    func syncAfterWrite() {
        do {
            _ = try drainOutbox()
        } catch {
            Self.warnUnavailable(.syncNotInJournal((try? syncSettings())??.folder ?? path, reason: Self.reason(error)))
        }
    }

    /// Whether this process said already that the sync folder cannot be written.
    nonisolated(unsafe) static var saidUnavailable = false

    /// Says once per process (a command) that the folder cannot be written or read.
    static func warnUnavailable(_ diagnostic: Diagnostic) {
        if saidUnavailable { return }
        saidUnavailable = true
        syncWarning(diagnostic)
    }

    static func reason(_ error: HistoryError) -> String {
        if case .unavailable(let path, let reason) = error { return "'\(path)': \(reason)" }
        return error.description
    }

    // MARK: Rebuilding

    /// Fills this history, which must be new, from the journals of `folder` alone: every
    /// device's, this one's included. The sync tables are gone again afterwards.
    public func rebuild(fromSync folder: String) throws(HistoryError) -> SyncReport {
        try writeWithoutSync { db in try SyncSchema.install(db, folder: folder, device: String(repeating: "0", count: 32), name: "") }
        var report = SyncReport()
        try catchUp(SyncSettings(folder: folder, device: String(repeating: "0", count: 32), name: ""), all: true, into: &report)
        _ = try leaveSync()
        return report
    }
}
