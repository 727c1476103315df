import RoutineKit

/// The merging rules of docs/sync.md: what a key holds is a function of the set of events
/// about it, whatever order they came in, so every device that has them holds the same.
///
/// Each device's newest event of a register is the one with its highest sequence number (a
/// device's clock never orders its own events); between devices the later time wins, then
/// the greater device id. A run has two registers: its content (`run` events) and whether it
/// is there (`delete` and `restore`), so a deletion wins over an amendment made elsewhere
/// and a restore brings that amendment back.
enum SyncMerge {
    struct Entry {
        var id: String
        var device: String
        var seq: Int64
        var at: String
        var type: String
    }

    /// Whether `a` supersedes `b`.
    static func supersedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.device == b.device { return (a.seq, a.id) > (b.seq, b.id) }
        return (a.at, a.device) > (b.at, b.device)
    }

    /// The winner among the given events: each device's newest, then the newest of those.
    static func winner(_ entries: [Entry]) -> Entry? {
        var newest: [String: Entry] = [:]
        for entry in entries where newest[entry.device].map({ supersedes(entry, $0) }) ?? true { newest[entry.device] = entry }
        return newest.values.reduce(nil) { best, entry in best.map { supersedes(entry, $0) ? entry : $0 } ?? entry }
    }

    /// The events of a key, without their payloads: only a winner's is read.
    static func entries(_ family: String, _ key: String, _ db: Database) throws -> [Entry] {
        var entries: [Entry] = []
        let sql = "SELECT id, device, seq, at, type FROM syncEvent WHERE family = ? AND key = ?"
        try db.forEachRow(sql, arguments: [family, key], cached: true) { row in
            entries.append(
                Entry(
                    id: row.text(0) ?? "", device: row.text(1) ?? "", seq: row.int64(2),
                    at: row.text(3) ?? "", type: row.text(4) ?? ""))
        }
        return entries
    }

    static func payload(_ entry: Entry, _ db: Database) throws -> [UInt8] {
        let text = try String.fetchOne(db.cachedStatement(sql: "SELECT payload FROM syncEvent WHERE id = ?"), arguments: [entry.id])
        return Array((text ?? "").utf8)
    }

    /// The run a `run` event holds: as the reading that brought it in decoded it (`decoded`, by
    /// event id), else from its stored payload.
    static func content(_ entry: Entry, _ db: Database, _ decoded: [String: StoredRun]) throws -> StoredRun? {
        if let run = decoded[entry.id] { return run }
        let bytes = try payload(entry, db)
        return try? HistoryJSON.decode(bytes)
    }

    /// What the events say of a run.
    struct RunState {
        /// The run as it is, or nil when it was deleted or never recorded.
        var run: StoredRun?
        var deleted: Bool
        var hasContent: Bool
    }

    /// `decoded`: runs of events read in this transaction, by id, so that no payload is read back.
    static func run(_ key: String, _ db: Database, decoded: [String: StoredRun] = [:]) throws -> RunState {
        let all = try entries("run", key, db)
        let contents = all.filter { $0.type == SyncEvent.Kind.run.rawValue }
        let life = winner(all.filter { $0.type != SyncEvent.Kind.run.rawValue })
        let deleted = life?.type == SyncEvent.Kind.delete.rawValue
        guard let best = winner(contents), var run = try content(best, db, decoded) else {
            return RunState(run: nil, deleted: deleted, hasContent: false)
        }
        // Amendments are kept from every device's newest content: the winner's in its own
        // order, then the others it lacks, oldest first.
        var newest: [String: Entry] = [:]
        for entry in contents where newest[entry.device].map({ supersedes(entry, $0) }) ?? true { newest[entry.device] = entry }
        var known = Set(run.amendments.map { HistoryJSON.encode($0).text })
        var others: [Amendment] = []
        for (device, entry) in newest where device != best.device {
            guard let other = try content(entry, db, decoded) else { continue }
            for amendment in other.amendments where known.insert(HistoryJSON.encode(amendment).text).inserted && amendment.step <= run.steps.count {
                others.append(amendment)
            }
        }
        run.amendments += others.sorted { ($0.madeAt, HistoryJSON.encode($0).text) < ($1.madeAt, HistoryJSON.encode($1).text) }
        return RunState(run: deleted ? nil : run, deleted: deleted, hasContent: true)
    }

    /// The day off the events say is recorded, or nil.
    static func day(_ key: String, _ db: Database) throws -> DayOff? {
        guard let best = winner(try entries("day", key, db)), best.type == SyncEvent.Kind.dayOff.rawValue else { return nil }
        let bytes = try payload(best, db)
        return try? HistoryJSON.decodeDayOff(bytes)
    }
}

extension HistoryStore {
    /// The run of this key in the history, with its id.
    static func localRun(routine: String, date: String, started: String, _ db: Database, _ store: HistoryStore) throws -> StoredRun? {
        let sql = "SELECT id FROM run WHERE routine = ? AND date = ? AND startedAt = ?"
        guard let id = try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: [routine, date, started]) else { return nil }
        return try run(id, db, store)
    }

    static func localDay(routine: String, date: String, _ db: Database) throws -> DayOff? {
        let sql = "SELECT reason, recordedAt FROM dayOff WHERE routine = ? AND date = ?"
        let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [routine, date])
        guard let row, let day = CalendarDate(date), let at = Timestamp(row[1] as String) else { return nil }
        return DayOff(routine: routine, date: day, reason: row[0], recordedAt: at)
    }

    /// Makes the history hold `merged` for this key, keeping the run's id; true when it changed.
    static func setLocalRun(routine: String, date: String, started: String, to merged: StoredRun?, _ db: Database, _ store: HistoryStore) throws
        -> Bool
    {
        let existing = try localRun(routine: routine, date: date, started: started, db, store)
        guard let merged else {
            guard let existing, let id = existing.id else { return false }
            try deleteRun(id, db)
            return true
        }
        if let existing, HistoryJSON.encode(existing) == HistoryJSON.encode(merged) { return false }
        if let id = existing?.id { try deleteRun(id, db) }
        var run = merged
        run.amendments = []
        var id = try insertRun(run, db)
        if let old = existing?.id {
            try db.execute(sql: "UPDATE run SET id = ? WHERE id = ?", arguments: [old, id])
            id = old
        }
        for step in merged.steps { try insertStep(step, run: id, db) }
        for amendment in merged.amendments { try insertAmendment(amendment, run: id, db) }
        return true
    }

    static func setLocalDay(routine: String, date: String, to merged: DayOff?, _ db: Database) throws -> Bool {
        let existing = try localDay(routine: routine, date: date, db)
        if existing == merged { return false }
        try db.execute(sql: "DELETE FROM dayOff WHERE routine = ? AND date = ?", arguments: [routine, date])
        if let merged {
            try db.execute(
                sql: "INSERT INTO dayOff (routine, date, reason, recordedAt) VALUES (?, ?, ?, ?)",
                arguments: [merged.routine, merged.date.description, merged.reason, merged.recordedAt.description])
        }
        return true
    }
}
