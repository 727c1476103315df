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
