import FoundationEssentials
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The journals read: what changed in the folder, and the events read from it applied.
extension HistoryStore {

    /// One look at every journal file: those of the other devices (every device's with `all`)
    /// whose inode, size or change time differ from what this history last read, and the folders' states,
    /// to record when they differ from those recorded. This device's own folder is looked at
    /// by ``checkOwnJournal(_:)``.
    /// `fresh` is about how many bytes they hold that were not read: a longer file's growth,
    /// a shorter one's size.
    func changedFiles(_ settings: SyncSettings, all: Bool) throws(HistoryError) -> (
        files: [SyncJournal.FileState], folders: [SyncJournal.FolderState]?, fresh: Int64
    ) {
        let (known, recorded): ([String: (UInt64, Int64, Int64)], [SyncJournal.FolderState]?) = try read { db in
            var known: [String: (UInt64, Int64, Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, inode, size, changed FROM syncFile") {
                known[row[0]] = (UInt64(bitPattern: row[1] as Int64), row[2], row[3])
            }
            return (known, try Self.recordedFolders(db))
        }
        let listing = SyncJournal.listing(in: settings.folder, except: nil)
        let own = settings.device + "/"
        let files = listing.files.filter { file in
            if !all, file.path.hasPrefix(own) { return false }
            guard let (inode, size, changed) = known[file.path] else { return true }
            return !file.matches(inode: inode, size: size, changed: changed)
        }
        let fresh = files.reduce(Int64(0)) { sum, file in
            guard let (_, size, _) = known[file.path], file.size >= size else { return sum + file.size }
            return sum + file.size - size
        }
        // A folder that cannot be reached records nothing: the next command looks again.
        return (files, listing.folders.isEmpty || recorded.map(Set.init) == Set(listing.folders) ? nil : listing.folders, fresh)
    }

    /// The folder states the last full look recorded; nil before the first (or in a history
    /// that joined before they were kept).
    /// An array, not a set: the first `Set` of a type in a process looks up the type's
    /// `Hashable` conformance among all the program's, a tenth of a millisecond.
    static func recordedFolders(_ db: Database) throws -> [SyncJournal.FolderState]? {
        // Asked of the main schema alone, by the exact name: the quick look of every prompt.
        guard try db.hasTable(named: "syncFolder") else { return nil }
        var folders: [SyncJournal.FolderState] = []
        try db.forEachRow("SELECT path, inode, changed FROM syncFolder", arguments: []) { row in
            folders.append(
                SyncJournal.FolderState(
                    path: row.text(0) ?? "", inode: UInt64(bitPattern: row.int64(1)), changed: row.int64(2)))
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
            var size, offset, changed: Int64
        }

        var folders: [SyncJournal.FolderState]?
        var files: [String: Known]
        /// Whether events held for being dated ahead of this clock are due now.
        var heldDue = false
    }

    static func looked(_ db: Database) throws -> Looked {
        var known: [String: Looked.Known] = [:]
        // A history whose sync tables are older than the change times: nothing is known, so
        // the sync runs, and its upgrade adds them.
        do {
            try db.forEachRow("SELECT path, inode, size, offset, changed FROM syncFile", arguments: []) { row in
                known[row.text(0) ?? ""] = Looked.Known(
                    inode: UInt64(bitPattern: row.int64(1)), size: row.int64(2),
                    offset: row.int64(3), changed: row.int64(4))
            }
        } catch {
            return Looked(folders: nil, files: [:])
        }
        return Looked(folders: try recordedFolders(db), files: known, heldDue: try hasHeldDue(SyncClock.horizon().description, db))
    }

    func folderMayHaveNews(_ settings: SyncSettings, _ looked: Looked) -> Bool {
        guard let recordedFolders = looked.folders else { return true }
        if looked.heldDue { return true }
        let known = looked.files
        let folders = Dictionary(recordedFolders.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        func same(_ path: String, _ info: SyncJournal.Info?) -> Bool {
            guard let info, info.isDirectory, let state = folders[path] else { return false }
            return state.inode == info.inode && state.changed == info.changed
        }
        func unchanged(_ path: String) -> Bool {
            guard let file = SyncJournal.kind(settings.folder + "/" + path), file.isFile, let old = known[path] else { return false }
            return old.inode == file.inode && old.size == file.size && old.changed == file.changed
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
            devices = SyncJournal.names(in: settings.folder).filter { SyncEvent.isID($0.utf8) }
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
                    // This device's own folder gone, with events it wrote: they are owed again.
                    if device == settings.device, known.keys.contains(where: { $0.hasPrefix(device + "/") }) { return true }
                    continue
                }
                for file in SyncJournal.files(of: device, in: settings.folder)
                where known[file.path].map({ !file.matches(inode: $0.inode, size: $0.size, changed: $0.changed) }) ?? true {
                    return true
                }
            }
        }
        return false
    }

    /// Reads the new lines of every changed journal file and applies the events they bring,
    /// in one transaction; events held for being dated ahead of this clock and due now are
    /// applied too.
    ///
    /// A reading of megabytes (a join) goes by batches of files of at most ``batchBytes``:
    /// each batch is parsed (on two threads) and applied before the next is read, so that the
    /// memory it takes is bounded whatever the journals' size. SQLite's cache may grow to
    /// 64 MB for it; its rows are written parent first, without SQLite's foreign key lookups.
    func catchUp(_ settings: SyncSettings, all: Bool, into report: inout SyncReport) throws(HistoryError) {
        let (changed, folders, fresh) = try changedFiles(settings, all: all)
        let horizon = SyncClock.horizon().description
        let heldDue = try read { db in try Self.hasHeldDue(horizon, db) }
        guard !changed.isEmpty || folders != nil || heldDue else { return }
        var warnings: [Diagnostic] = []
        // A day's line added to a month's file of megabytes is not a large reading.
        let large = fresh > 1 << 20
        var batches: [[SyncJournal.FileState]] = [[]]
        var size: Int64 = 0
        for file in changed {
            if size + file.size > Self.batchBytes, !batches[batches.count - 1].isEmpty {
                batches.append([])
                size = 0
            }
            batches[batches.count - 1].append(file)
            size += file.size
        }
        let arrivals: [SyncArrival] = try writeWithoutSync(checkingForeignKeys: !large) { db in
            let cache = large ? try Int.fetchOne(db, sql: "PRAGMA cache_size") : nil
            if large { try db.execute(sql: "PRAGMA cache_size = -65536") }
            defer { if let cache { try? db.execute(sql: "PRAGMA cache_size = \(cache)") } }
            if let folders { try SyncSchema.record(folders, db) }
            try db.execute(sql: "UPDATE syncState SET importing = 1")
            var reading = Reading(db: db, horizon: horizon, folder: settings.folder)
            try reading.releaseHeld()
            // Statements compiled once for the whole reading: a join inserts tens of thousands.
            let known = try db.cachedStatement(sql: "SELECT offset, lines, prefix FROM syncFile WHERE path = ?")
            let record = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO syncFile (path, inode, size, offset, lines, prefix, changed) VALUES (?, ?, ?, ?, ?, ?, ?)")
            var arrivals: [SyncArrival] = []
            // Where each file is read from, known before any is read: each file is in one batch.
            var starts: [[JournalLines.Start]] = []
            for batch in batches {
                starts.append(
                    try batch.map { file in
                        let row = try Row.fetchOne(known, arguments: [file.path])
                        return JournalLines.start(of: file, recorded: row.map { ($0[0], $0[1], $0[2]) })
                    })
            }
            func apply(_ journals: [JournalLines], _ batch: [SyncJournal.FileState]) throws {
                for journal in journals {
                    let full = settings.folder + "/" + journal.path
                    if let reason = journal.failure {
                        if try Self.noteProblem(journal.path, line: 0, reason: reason, db) { warnings.append(.syncUnreadable(full, reason: reason)) }
                        continue
                    }
                    try db.execute(sql: "DELETE FROM syncProblem WHERE path = ? AND line = 0", arguments: [journal.path])
                    var bad: [(Int, String)] = []
                    for (line, result) in journal.lines {
                        switch result {
                        case .success(let event): try reading.take(event, at: journal.path, line: line, warnings: &warnings)
                        case .failure(let error): bad.append((line, error.reason))
                        }
                    }
                    if let warning = try Self.recordProblems(journal.path, full: full, again: journal.start.offset == 0, bad, db) {
                        warnings.append(warning)
                    }
                    let file = batch.first { $0.path == journal.path }
                    try record.execute(arguments: [
                        journal.path, Int64(bitPattern: file?.inode ?? 0), file?.size ?? 0, journal.end, journal.start.line + journal.linesRead,
                        journal.prefix, file?.changed ?? -1,
                    ])
                }
                arrivals = Self.merging(arrivals, try reading.applyTouched(self))
            }
            // A batch's files are parsed, then applied, before the next batch is read. Parsing the
            // next batch on a side thread while one is applied was tried: a join of ten years of
            // three devices took the same time on an idle machine, and 24 MB more memory.
            for (k, batch) in batches.enumerated() where !batch.isEmpty {
                try apply(Self.parse(batch, from: starts[k], settings.folder, threads: large ? 2 : 1), batch)
            }
            arrivals = Self.merging(arrivals, try reading.applyTouched(self))
            try db.execute(sql: "UPDATE syncState SET importing = 0")
            return arrivals
        }
        for warning in warnings { Self.syncWarning(warning) }
        report.problems += warnings
        report.arrivals = Self.merging(report.arrivals, arrivals)
    }

    /// The bytes of journals read and applied at a time: what a reading holds in memory, at
    /// about four times their size parsed. 16 MB put a join of ten years of three devices 7 MB
    /// over its bound (the history's growth plus 64 MB); 4 MB keeps it 20 MB under.
    static let batchBytes: Int64 = 4 << 20

    /// `a` and `b` added up by device, in the order first met.
    static func merging(_ a: [SyncArrival], _ b: [SyncArrival]) -> [SyncArrival] {
        var result = a
        for arrival in b {
            if let k = result.firstIndex(where: { $0.device == arrival.device }) {
                result[k].runs += arrival.runs
                result[k].logs += arrival.logs
                result[k].deletions += arrival.deletions
                result[k].daysOff += arrival.daysOff
            } else {
                result.append(arrival)
            }
        }
        return result
    }

    /// Whether events held for being dated ahead are due: stamped at or before `horizon`.
    static func hasHeldDue(_ horizon: String, _ db: Database) throws -> Bool {
        try db.hasTable(named: "syncHeld")
            && db.hasRow("SELECT 1 FROM syncHeld WHERE at <= '\(horizon)' LIMIT 1")
    }

    /// The new lines of `files`, parsed from `starts`, on `threads` threads that take the
    /// files one at a time; in the order of `files`.
    static func parse(_ files: [SyncJournal.FileState], from starts: [JournalLines.Start], _ folder: String, threads: Int) -> [JournalLines] {
        let next = NextIndex()
        let work: @Sendable () -> [(Int, JournalLines)] = {
            var done: [(Int, JournalLines)] = []
            while let k = next.take(below: files.count) { done.append((k, JournalLines.read(files[k], from: starts[k], folder))) }
            return done
        }
        guard threads > 1, files.count > 1 else { return work().map(\.1) }
        let (side, main) = alongside(work, work)
        return (side + main).sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The events of one reading taken in: each once by its id, a duplicate id with other
    /// content settled the same way on every device, and an event dated more than a day ahead
    /// of this clock held.
    struct Reading {
        let db: Database
        /// The latest stamp an event may have to be applied now.
        let horizon: String
        let folder: String
        var touched: [(family: String, key: String, device: String)] = []
        /// The runs of the events taken in, by id: applying them reads no payload back.
        var decoded: [String: StoredRun] = [:]

        init(db: Database, horizon: String, folder: String) {
            self.db = db
            self.horizon = horizon
            self.folder = folder
        }

        mutating func take(_ event: SyncEvent, at path: String, line: Int, warnings: inout [Diagnostic]) throws {
            // A device's name changes no record: it is never held.
            if event.kind != .device, event.at.description > horizon {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO syncHeld (id, device, at, line) VALUES (?, ?, ?, ?)",
                    arguments: [event.id, event.device, event.at.description, event.line])
                return
            }
            try db.executeBinding("INSERT OR IGNORE INTO syncEvent (id, device, seq, at, type, family, key, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            {
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
            if db.changesCount == 0 {
                try settleDuplicate(event, at: path, line: line, warnings: &warnings)
                return
            }
            guard event.kind != .device else { return }
            touched.append((event.kind.family, event.key, event.device))
            if let run = event.run { decoded[event.id] = run }
        }

        /// Two events with one id and different content: the one whose line sorts first is
        /// kept, on every device whichever it read first; said once, naming both places.
        private mutating func settleDuplicate(_ event: SyncEvent, at path: String, line: Int, warnings: inout [Diagnostic]) throws {
            let sql = "SELECT device, seq, at, type, key, payload FROM syncEvent WHERE id = ?"
            guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [event.id]) else { return }
            let kept = SyncEvent(
                id: event.id, device: row[0], seq: row[1], at: Timestamp(row[2] as String) ?? event.at,
                kind: SyncEvent.Kind(rawValue: row[3]) ?? .run, payload: row[5], key: row[4])
            let (old, new) = (kept.line, event.line)
            guard old != new else { return }
            let other = kept.device
            if try HistoryStore.noteProblem(path, line: line, reason: "event '\(event.id)' differs from the one of that id in '\(other)'", db) {
                warnings.append(.syncDuplicateID(event.id, folder + "/" + path, line: line, other: folder + "/" + other))
            }
            guard Array(new.utf8).lexicographicallyPrecedes(Array(old.utf8)) else { return }
            try db.execute(
                sql: "UPDATE syncEvent SET device = ?, seq = ?, at = ?, type = ?, family = ?, key = ?, payload = ? WHERE id = ?",
                arguments: [
                    event.device, event.seq, event.at.description, event.kind.rawValue, event.kind.family, event.key, event.payload, event.id,
                ])
            if kept.kind != .device { touched.append((kept.kind.family, kept.key, kept.device)) }
            if event.kind != .device { touched.append((event.kind.family, event.key, event.device)) }
            if let run = event.run { decoded[event.id] = run }
        }

        /// Takes in the events held for being dated ahead that this clock has now reached.
        mutating func releaseHeld() throws {
            guard try HistoryStore.hasHeldDue(horizon, db) else { return }
            let due = try Row.fetchAll(db, sql: "SELECT id, line FROM syncHeld WHERE at <= ?", arguments: [horizon])
            var ignored: [Diagnostic] = []
            for row in due {
                let line: String = row[1]
                if let event = try? SyncEvent.parse(ArraySlice(line.utf8)) { try take(event, at: "", line: 0, warnings: &ignored) }
                try db.execute(sql: "DELETE FROM syncHeld WHERE id = ?", arguments: [row[0] as String])
            }
        }

        /// Applies what the events taken since the last call changed, and forgets them.
        mutating func applyTouched(_ store: HistoryStore) throws -> [SyncArrival] {
            defer {
                touched = []
                decoded = [:]
            }
            guard !touched.isEmpty else { return [] }
            let (touched, decoded) = (touched, decoded)
            return try SyncSchema.applying(keys: touched.count, db) { try store.apply(touched, decoded, db) }
        }
    }

    /// Sets every key the new events are about to what all the events say, and counts what
    /// changed by the device that sent it.
    func apply(_ touched: [(family: String, key: String, device: String)], _ decoded: [String: StoredRun], _ db: Database) throws
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
    static func noteProblem(_ path: String, line: Int, reason: String, _ db: Database) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO syncProblem (path, line, reason) VALUES (?, ?, ?)", arguments: [path, line, reason])
        return db.changesCount > 0
    }

    /// The bad lines kept of one file: the first few; how many there are is in a row of line -1.
    static let problemLinesKept = 5

    /// Records the lines of `path` that could not be read. `again`: the file was read from its
    /// start, so what was recorded of it no longer holds (a line now valid is no problem any
    /// more). Bounded: the first ``problemLinesKept`` lines, and the count. Returns the file's
    /// one warning when it has bad lines not said before.
    static func recordProblems(_ path: String, full: String, again: Bool, _ bad: [(Int, String)], _ db: Database) throws -> Diagnostic? {
        var before: [Int: String] = [:]
        let sql = "SELECT line, reason FROM syncProblem WHERE path = ? AND line != 0 AND reason NOT LIKE 'event %'"
        for row in try Row.fetchAll(db, sql: sql, arguments: [path]) { before[row[0]] = row[1] }
        let saidLines = before.keys.filter { $0 > 0 }.sorted()
        let said = before[-1].flatMap { Int($0) } ?? saidLines.count
        if before.isEmpty, bad.isEmpty { return nil }
        var lines = again ? [] : saidLines.map { ($0, before[$0] ?? "") }
        var count = again ? 0 : said
        lines += bad
        count += bad.count
        try db.execute(sql: "DELETE FROM syncProblem WHERE path = ? AND line != 0 AND reason NOT LIKE 'event %'", arguments: [path])
        let kept = Array(lines.prefix(problemLinesKept))
        for (line, reason) in kept {
            try db.execute(sql: "INSERT OR REPLACE INTO syncProblem (path, line, reason) VALUES (?, ?, ?)", arguments: [path, line, reason])
        }
        if count > kept.count {
            try db.execute(sql: "INSERT OR REPLACE INTO syncProblem (path, line, reason) VALUES (?, -1, ?)", arguments: [path, String(count)])
        }
        // Said again only when it says something new: more lines, or other lines.
        guard !bad.isEmpty, count != said || kept.map(\.0) != Array(saidLines.prefix(problemLinesKept)) else { return nil }
        return .syncBadLines(full, count: count, lines: kept.map(\.0), reason: kept.first?.1 ?? "")
    }
}
