import RoutineKit

/// Which runs a listing wants.
public struct RunFilter: Hashable, Sendable {
    /// Only the runs of the routine with this name.
    public var routine: String?
    /// `YYYY-MM-DD` bounds, both inclusive.
    public var since: String?
    public var until: String?
    /// At most this many runs, newest first.
    public var limit: Int?
    /// Oldest first instead of newest first.
    public var oldestFirst = false

    public init(routine: String? = nil, since: String? = nil, until: String? = nil, limit: Int? = nil, oldestFirst: Bool = false) {
        self.routine = routine
        self.since = since
        self.until = until
        self.limit = limit
        self.oldestFirst = oldestFirst
    }
}

extension HistoryStore {
    /// The runs `filter` selects, with their steps, newest first (or oldest first).
    public func runs(_ filter: RunFilter) throws(HistoryError) -> [StoredRun] {
        try runs(filter, withSteps: true)
    }

    func runs(_ filter: RunFilter, withSteps: Bool) throws(HistoryError) -> [StoredRun] {
        try read { db in
            let (selection, arguments) = filter.sql
            var runs = try runs(db, filter)
            if withSteps {
                var position: [Int64: Int] = [:]
                for (k, run) in runs.enumerated() { if let id = run.id { position[id] = k } }
                let sql = "SELECT \(StoredStep.columns(self)) FROM step WHERE runId IN (SELECT id FROM run \(selection)) ORDER BY runId, step"
                try db.forEachRow(sql, arguments: arguments) { row in
                    if let k = position[row.int64(0)] { runs[k].steps.append(StoredStep(row: row)) }
                }
                if flags.hasLogColumns {
                    let sql = "SELECT \(Amendment.columns(self)) FROM amendment WHERE runId IN (SELECT id FROM run \(selection)) ORDER BY id"
                    try db.forEachRow(sql, arguments: arguments) { row in
                        if let k = position[row.int64(0)] { runs[k].amendments.append(Amendment(row: row)) }
                    }
                }
            }
            return runs
        }
    }

    /// The runs `filter` selects, without their steps, in its order.
    func runs(_ db: Database, _ filter: RunFilter) throws -> [StoredRun] {
        let (selection, arguments) = filter.sql
        var runs: [StoredRun] = []
        try db.forEachRow("SELECT \(StoredRun.columns(self)) FROM run \(selection)", arguments: arguments) { runs.append(StoredRun(row: $0)) }
        return runs
    }

    /// The IDs of the runs `filter` selects, in ascending order.
    static func runIDs(_ db: Database, _ filter: RunFilter) throws -> [Int64] {
        let (selection, arguments) = filter.sql
        var ids: [Int64] = []
        try db.forEachRow("SELECT id FROM run \(selection)", arguments: arguments) { ids.append($0.int64(0)) }
        return ids.sorted()
    }

    /// The newest run of `routine` on `date`, with its steps; logs made since are passed over.
    public func latestRun(of routine: String, on date: String) throws(HistoryError) -> StoredRun? {
        try runs(RunFilter(routine: routine, since: date, until: date)).first { $0.kind == .run }
    }

    /// The number of runs in the history.
    public func runCount() throws(HistoryError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM run") ?? 0 }
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file.
    public func integrityCheck() throws(HistoryError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

}

extension RunFilter {
    /// `WHERE … ORDER BY … LIMIT …` over `run`, and its arguments: the same selection serves
    /// the runs and, as a subquery, their steps.
    var sql: (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let routine {
            conditions.append("routine = ?")
            arguments += [routine]
        }
        if let since {
            conditions.append("date >= ?")
            arguments += [since]
        }
        if let until {
            conditions.append("date <= ?")
            arguments += [until]
        }
        let order = oldestFirst ? "ASC" : "DESC"
        var sql = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        sql += " ORDER BY date \(order), startedAt \(order), id \(order)"
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return (sql, arguments)
    }
}

extension HistoryStore {
    /// The files of the routines run (or logged) since `since`: for each routine the path its
    /// newest record gave, newest routine first.
    public func recentRoutinePaths(since: String) throws(HistoryError) -> [String] {
        try read { db in
            let sql = """
                SELECT path FROM run AS r WHERE date >= ? AND path != '-'
                AND id = (SELECT id FROM run WHERE routine = r.routine ORDER BY date DESC, startedAt DESC LIMIT 1)
                ORDER BY date DESC, startedAt DESC
                """
            return try String.fetchAll(db, sql: sql, arguments: [since])
        }
    }
}
