import FoundationEssentials
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The journal this device writes: its changes turned into events and appended to its folder.
extension HistoryStore {

    /// Turns the keys the triggers collected into events, then appends the events not yet in
    /// the journal to it. Returns how many lines were written.
    func drainOutbox() throws(HistoryError) -> Int {
        let settings: SyncSettings? = try writeWithoutSync { db in
            guard let settings = try Self.syncSettings(db) else { return nil }
            let keys = try Row.fetchAll(db, sql: "SELECT family, routine, date, startedAt FROM syncOutbox")
            guard !keys.isEmpty else { return settings }
            try SyncSchema.upgrade(db)
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
        guard settings != nil else { return 0 }
        return try writeJournal()
    }

    func outgoingRun(routine: String, date: String, started: String, device: String, _ db: Database) throws {
        let key = SyncEvent.runKey(routine: routine, date: date, started: started)
        let reference = SyncEvent.runReference(routine: routine, date: date, started: started)
        let local = try Self.localRun(routine: routine, date: date, started: started, db, self)
        // A key no event speaks of yet (each run of an import): its one event is what the
        // history holds, so nothing is merged back.
        var spoken = false
        try db.forEachRow(Self.anyEventSQL, arguments: [key], cached: true) { _ in spoken = true }
        if let local, !spoken {
            try Self.emit(.run, payload: HistoryJSON.encode(local).text, key: key, device: device, db)
            return
        }
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

    static let anyEventSQL = "SELECT 1 FROM syncEvent WHERE family = 'run' AND key = ? LIMIT 1"

    func outgoingDay(routine: String, date: String, device: String, _ db: Database) throws {
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
        let now = Timestamp.now()
        // The newest stamp seen, leaving out any dated beyond the horizon (kept by an older
        // version): a stamp of 9999 would otherwise carry every later one with it.
        let newest = try String.fetchOne(
            db.cachedStatement(sql: "SELECT max(at) FROM syncEvent WHERE at <= ?"), arguments: [SyncClock.horizon(now).description])
        let at = SyncClock.stamp(after: newest.flatMap { Timestamp($0) }, now: now)
        try db.cachedStatement(
            sql: "INSERT INTO syncEvent (id, device, seq, at, type, family, key, payload, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)"
        ).execute(arguments: [SyncEvent.newID(), device, seq, at.description, kind.rawValue, kind.family, key, payload])
    }

    /// Appends the events not yet written, by month of their stamp. Before appending, this
    /// device's folder must hold what it wrote there (``checkOwnJournal(_:)``).
    func writeJournal() throws(HistoryError) -> Int {
        guard var settings = try syncSettings() else { return 0 }
        let owed = try read { db in try db.hasRow("SELECT 1 FROM syncEvent WHERE written = 0 LIMIT 1") }
        guard owed else { return 0 }
        try writeWithoutSync { db in try SyncSchema.upgrade(db) }
        settings = try checkOwnJournal(settings)
        let pending = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, seq, at, type, key, payload FROM syncEvent WHERE written = 0 ORDER BY seq").map { row in
                SyncEvent(
                    id: row[0], device: settings.device, seq: row[1], at: Timestamp(row[2] as String) ?? .now(),
                    kind: SyncEvent.Kind(rawValue: row[3]) ?? .run, payload: row[5], key: row[4])
            }
        }
        guard !pending.isEmpty else { return 0 }
        var months: [String: [SyncEvent]] = [:]
        for event in pending { months[String(event.at.description.prefix(7)), default: []].append(event) }
        var written = 0
        for (month, events) in months.sorted(by: { $0.key < $1.key }) {
            let relative = settings.device + "/" + month + ".jsonl"
            let file = settings.folder + "/" + relative
            if let problem = SyncJournal.makeFolder(settings.folder + "/" + settings.device) { throw .unavailable(path: file, reason: problem) }
            switch SyncJournal.append(events.map(\.line), to: file) {
            case .failure(let failure): throw .unavailable(path: file, reason: failure.reason)
            case .success(let sizes):
                let info = SyncJournal.kind(file)
                try writeWithoutSync { db in
                    let mark = try db.cachedStatement(sql: "UPDATE syncEvent SET written = 1 WHERE id = ?")
                    for event in events { try mark.execute(arguments: [event.id]) }
                    try db.execute(sql: "UPDATE syncState SET journal = ?, journalSize = ?", arguments: [relative, sizes.after])
                    try Self.recordOwnFile(relative, inode: info?.inode ?? 0, size: sizes.after, changed: info?.changed ?? -1, db)
                }
                written += events.count
            }
        }
        return written
    }

    /// This device's own file as it left it: compared by the next look, never read by it.
    static func recordOwnFile(_ path: String, inode: UInt64, size: Int64, changed: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO syncFile (path, inode, size, offset, lines, prefix, changed) VALUES (?, ?, ?, ?, 0, 0, ?)",
            arguments: [path, Int64(bitPattern: inode), size, size, changed])
    }

    /// Checks this device's folder against the events it wrote there (docs/sync.md, "Every
    /// device's own journal heals"), when a file of it is not as this device left it: a file
    /// missing, shorter, replaced by an older copy, or holding lines it did not write.
    ///
    /// - An event it wrote that no file holds is written again, with its id.
    /// - A line of its id it did not write (a copied history writing as this device): this
    ///   device takes a new id and writes again under it what of its own the folder lacks;
    ///   the old folder is read from then on as another device's, so both sides' records
    ///   survive. Returns the settings, with the new id.
    ///
    /// A sync folder that cannot be reached is no deletion: nothing is changed then.
    func checkOwnJournal(_ settings: SyncSettings) throws(HistoryError) -> SyncSettings {
        guard let root = SyncJournal.kind(settings.folder, follow: true), root.isDirectory else { return settings }
        // Its own folder there but no folder (a file in its place): unreachable, no deletion.
        if let own = SyncJournal.kind(settings.folder + "/" + settings.device), !own.isDirectory { return settings }
        let prefix = settings.device + "/"
        let recorded: [String: (UInt64, Int64, Int64)] = try read { db in
            var rows: [String: (UInt64, Int64, Int64)] = [:]
            let sql = "SELECT path, inode, size, changed FROM syncFile WHERE substr(path, 1, 33) = ?"
            for row in try Row.fetchAll(db, sql: sql, arguments: [prefix]) {
                rows[row[0]] = (UInt64(bitPattern: row[1] as Int64), row[2], row[3])
            }
            return rows
        }
        let files = SyncJournal.files(of: settings.device, in: settings.folder)
        let same =
            files.count == recorded.count
            && files.allSatisfy { file in recorded[file.path].map { file.matches(inode: $0.0, size: $0.1, changed: $0.2) } ?? false }
        // An empty folder is as it was left only when this device wrote nothing there yet.
        if same, !files.isEmpty { return settings }
        if same, try !read({ db in try db.hasRow("SELECT 1 FROM syncEvent WHERE device = ? AND written = 1 LIMIT 1", [settings.device]) }) {
            return settings
        }
        // Every line of the folder, by id.
        var found: [String: String] = [:]
        // Every line of an id, with its place: one edited by hand is settled as any device settles it.
        var variants: [String: [(event: SyncEvent, path: String, line: Int)]] = [:]
        var foreign: (path: String, count: Int)?
        for file in files {
            let journal = JournalLines.read(file, from: JournalLines.Start(offset: 0, line: 0), settings.folder)
            for case (let line, .success(let event)) in journal.lines {
                found[event.id] = event.line
                variants[event.id, default: []].append((event, file.path, line))
            }
        }
        var missing: [String] = []
        var unmarked: [String] = []
        var edited: [(event: SyncEvent, path: String, line: Int)] = []
        try read { db in
            var mine = Set<String>()
            let sql = "SELECT id, seq, at, type, key, payload, written FROM syncEvent WHERE device = ?"
            for row in try Row.fetchAll(db, sql: sql, arguments: [settings.device]) {
                let event = SyncEvent(
                    id: row[0], device: settings.device, seq: row[1], at: Timestamp(row[2] as String) ?? .now(),
                    kind: SyncEvent.Kind(rawValue: row[3]) ?? .run, payload: row[5], key: row[4])
                mine.insert(event.id)
                let written: Bool = row[6]
                if let lines = variants[event.id] {
                    let others = lines.filter { $0.event.line != event.line && $0.event.device == settings.device }
                    let held = lines.contains { $0.event.line == event.line }
                    edited += others
                    if !written, held { unmarked.append(event.id) }
                    // Its own line edited in place, by an edit that loses: written again, so
                    // that every device reads both and keeps this one.
                    let own = Array(event.line.utf8)
                    if written, !held, !others.contains(where: { Array($0.event.line.utf8).lexicographicallyPrecedes(own) }) {
                        missing.append(event.id)
                    }
                } else if written {
                    missing.append(event.id)
                }
            }
            for (id, _) in found where !mine.contains(id) {
                foreign = (foreign?.path ?? settings.folder + "/" + prefix, (foreign?.count ?? 0) + 1)
            }
        }
        if let foreign {
            let (device, again) = try reidentify(settings)
            Self.syncWarning(.syncDeviceCopied(settings.device, file: foreign.path, newID: device, rewritten: again))
            var moved = settings
            moved.device = device
            return moved
        }
        var warnings: [Diagnostic] = []
        try writeWithoutSync { db in
            // A line of its own edited by hand: the device keeps what every other device keeps
            // (docs/sync.md, "Duplicate ids"), so that all exports agree.
            if !edited.isEmpty {
                var reading = Reading(db: db, horizon: SyncClock.horizon().description, folder: settings.folder)
                for variant in edited { try reading.take(variant.event, at: variant.path, line: variant.line, warnings: &warnings) }
                _ = try reading.applyTouched(self)
            }
            let owe = try db.cachedStatement(sql: "UPDATE syncEvent SET written = 0 WHERE id = ?")
            for id in missing { try owe.execute(arguments: [id]) }
            let mark = try db.cachedStatement(sql: "UPDATE syncEvent SET written = 1 WHERE id = ?")
            for id in unmarked { try mark.execute(arguments: [id]) }
            try db.execute(sql: "DELETE FROM syncFile WHERE substr(path, 1, 33) = ?", arguments: [prefix])
            for file in files { try Self.recordOwnFile(file.path, inode: file.inode, size: file.size, changed: file.changed, db) }
        }
        for warning in warnings { Self.syncWarning(warning) }
        return settings
    }

    /// A new device id for this history, when another device writes with its id. Every event
    /// it wrote under the old id is made again under the new one, with its stamp, in its
    /// order: the old folder is shared with the copy from then on, and may lose what this
    /// device wrote there with no one to heal it, while its own folder it heals. What the old
    /// folder holds is read from now on as another device's. Returns the new id and how many
    /// events were made again.
    func reidentify(_ settings: SyncSettings) throws(HistoryError) -> (String, Int) {
        let device = SyncEvent.newID()
        if let problem = SyncJournal.makeFolder(settings.folder + "/" + device) {
            throw .unavailable(path: settings.folder + "/" + device, reason: problem)
        }
        let again = try writeWithoutSync { db in
            try db.execute(sql: "UPDATE syncState SET device = ?, seq = 0, journal = NULL, journalSize = NULL", arguments: [device])
            try Self.emit(.device, payload: JSONValue.string(settings.name).text, key: "", device: device, db)
            var again = 0
            let sql = "SELECT id, at, type, family, key, payload, written FROM syncEvent WHERE device = ? AND type != 'device' ORDER BY seq"
            for row in try Row.fetchAll(db, sql: sql, arguments: [settings.device]) {
                let (id, written): (String, Bool) = (row[0], row[6])
                try db.execute(sql: "UPDATE syncState SET seq = seq + 1")
                try db.execute(
                    sql: """
                        INSERT INTO syncEvent (id, device, seq, at, type, family, key, payload, written)
                        VALUES (?, ?, (SELECT seq FROM syncState), ?, ?, ?, ?, ?, 0)
                        """,
                    arguments: [SyncEvent.newID(), device, row[1] as String, row[2] as String, row[3] as String, row[4] as String, row[5] as String])
                if !written { try db.execute(sql: "DELETE FROM syncEvent WHERE id = ?", arguments: [id]) }
                again += 1
            }
            // The old folder is read from its start as another device's: the copy's lines in it.
            try db.execute(sql: "DELETE FROM syncFile WHERE substr(path, 1, 33) = ?", arguments: [settings.device + "/"])
            return again
        }
        return (device, again)
    }
}
