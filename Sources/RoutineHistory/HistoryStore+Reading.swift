import GRDB
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
        try read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let routine = filter.routine {
                conditions.append("routine = ?")
                arguments += [routine]
            }
            if let since = filter.since {
                conditions.append("date >= ?")
                arguments += [since]
            }
            if let until = filter.until {
                conditions.append("date <= ?")
                arguments += [until]
            }
            let order = filter.oldestFirst ? "ASC" : "DESC"
            var sql = "SELECT * FROM run"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY date \(order), startedAt \(order), id \(order)"
            if let limit = filter.limit {
                sql += " LIMIT ?"
                arguments += [limit]
            }
            var runs = try Row.fetchAll(db, sql: sql, arguments: arguments).map(StoredRun.init(row:))
            try Self.attachSteps(&runs, db)
            return runs
        }
    }

    /// The newest run of `routine` on `date`, with its steps.
    public func latestRun(of routine: String, on date: String) throws(HistoryError) -> StoredRun? {
        try runs(RunFilter(routine: routine, since: date, until: date, limit: 1)).first
    }

    /// The number of runs in the history.
    public func runCount() throws(HistoryError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM run") ?? 0 }
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file.
    public func integrityCheck() throws(HistoryError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// Fills in the steps of `runs` with one query per thousand runs, rather than one per run.
    private static func attachSteps(_ runs: inout [StoredRun], _ db: Database) throws {
        var position: [Int64: Int] = [:]
        for (k, run) in runs.enumerated() { if let id = run.id { position[id] = k } }
        let ids = Array(position.keys)
        for start in stride(from: 0, to: ids.count, by: 1000) {
            let chunk = ids[start..<min(start + 1000, ids.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT * FROM step WHERE runId IN (\(marks)) ORDER BY runId, step",
                arguments: StatementArguments(Array(chunk)))
            while let row = try cursor.next() {
                let id: Int64 = row["runId"]
                if let k = position[id] { runs[k].steps.append(StoredStep(row: row)) }
            }
        }
    }
}
