import RoutineKit

/// Where a stored run stands, cheaply read: a runner that keeps a run in memory compares it
/// with what it last wrote, to notice a run taken up elsewhere meanwhile.
public struct RunStamp: Hashable, Sendable {
    public var steps: Int
    /// The newest step's decision time (nil without steps).
    public var lastDecidedAt: String?
    public var result: RunResult?
    public var endedAt: String?
}

extension HistoryStore {
    /// Where run `id` stands; nil when there is no such run.
    public func stamp(of id: Int64) throws(HistoryError) -> RunStamp? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT result, endedAt FROM run WHERE id = ?", arguments: [id]) else { return nil }
            let steps = try Row.fetchOne(db, sql: "SELECT count(*), max(decidedAt) FROM step WHERE runId = ?", arguments: [id])
            return RunStamp(
                steps: steps?[0] ?? 0, lastDecidedAt: steps?[1], result: (row[0] as String?).flatMap(RunResult.init(rawValue:)),
                endedAt: row[1])
        }
    }

    /// The run with id `id`, with its steps and amendments; nil when there is none.
    public func run(id: Int64) throws(HistoryError) -> StoredRun? {
        try read { db in try Self.run(id, db, self) }
    }

    static func run(_ id: Int64, _ db: Database, _ store: HistoryStore) throws -> StoredRun? {
        var found: StoredRun?
        try db.forEachRow("SELECT \(StoredRun.columns(store)) FROM run WHERE id = ?", arguments: [id], cached: true) { found = StoredRun(row: $0) }
        guard var run = found else { return nil }
        try db.forEachRow("SELECT \(StoredStep.columns(store)) FROM step WHERE runId = ? ORDER BY step", arguments: [id], cached: true) {
            run.steps.append(StoredStep(row: $0))
        }
        if store.flags.hasLogColumns {
            try db.forEachRow("SELECT \(Amendment.columns(store)) FROM amendment WHERE runId = ? ORDER BY id", arguments: [id], cached: true) {
                run.amendments.append(Amendment(row: $0))
            }
        }
        return run
    }
}
