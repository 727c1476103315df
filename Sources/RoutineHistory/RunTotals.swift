import RoutineKit

/// What a run amounts to, for a listing: how many habits were done, skipped and passed over,
/// and the values of its numeric habits.
public struct RunTotals: Hashable, Sendable {
    public var done = 0
    public var skipped = 0
    /// Passed over because not scheduled (a day off its schedule, a met quota).
    public var notScheduled = 0
    /// Passed over because a log or an earlier run had done it that day (a step with a reason).
    public var doneEarlier = 0
    /// Numeric habits' values in step order: the node's ID, the value, the target as it was.
    public var values: [Value] = []

    public struct Value: Hashable, Sendable {
        public var node: String
        public var value: Double
        public var target: Double?
    }

    public init() {}

    /// The totals of `steps`.
    public init(_ steps: [StoredStep]) {
        for step in steps {
            if step.reason != nil { doneEarlier += 1 } else { count(step.decision.result) }
            if let value = step.decision.value { values.append(Value(node: step.decision.node, value: value, target: step.target)) }
        }
    }

    mutating func count(_ result: RecordedStep.Result, times: Int = 1) {
        switch result {
        case .done: done += times
        case .skipped: skipped += times
        case .notScheduled: notScheduled += times
        case .answered: break
        }
    }
}

extension HistoryStore {
    /// The runs `filter` selects, without their steps, each with its totals. The results are
    /// read from the (runId, result) index over the selected runs' range of IDs and counted
    /// here: SQLite's own grouping costs several times the scan (ten years of mornings).
    public func runTotals(_ filter: RunFilter) throws(HistoryError) -> [(run: StoredRun, totals: RunTotals)] {
        try runTotals(filter, runsForTwoThreads: SecondConnection.runsWorthIt)
    }

    /// `runsForTwoThreads`: from how many runs the older half's results are counted on another thread.
    func runTotals(_ filter: RunFilter, runsForTwoThreads: Int) throws(HistoryError) -> [(run: StoredRun, totals: RunTotals)] {
        try read { db in
            let ids = try Self.runIDs(db, filter)
            let counter = ResultCounter(ids: ids)
            var runs: [StoredRun] = []
            let parts = try SecondConnection.split(ids, path: location, from: runsForTwoThreads) { other, first, last in
                counter.count(other, from: first, to: last)
            } meanwhile: {
                runs = try self.runs(db, filter)
            } main: { first, last in
                try counter.count(db, from: first, to: last)
            }
            var runOfRank = [Int?](repeating: nil, count: ids.count)
            for (k, run) in runs.enumerated() { if let id = run.id, let rank = counter.rank[id] { runOfRank[rank] = k } }
            var totals = [RunTotals](repeating: RunTotals(), count: runs.count)
            for part in parts {
                for (rank, count) in part {
                    guard let k = runOfRank[rank] else { continue }
                    (totals[k].done, totals[k].skipped, totals[k].notScheduled) = count
                }
            }
            guard let first = ids.first, let last = ids.last else { return [] }
            if hasLogColumns {
                // A pass over what was done earlier is a step with a reason: few, read from their own index (v8).
                let passed = "SELECT runId, count(*) FROM step WHERE runId BETWEEN ? AND ? AND reason IS NOT NULL GROUP BY runId"
                try db.forEachRow(passed, arguments: [first, last]) { row in
                    guard let rank = counter.rank[row.int64(0)], let k = runOfRank[rank] else { return }
                    let count = row.int(1)
                    totals[k].doneEarlier = count
                    totals[k].notScheduled -= count
                }
            }
            // The planner takes the covering index on its own; naming it would fail on a
            // history that a read-only file kept at an older schema.
            let values = "SELECT runId, node, value, target FROM step WHERE runId BETWEEN ? AND ? AND value IS NOT NULL ORDER BY runId, step"
            try db.forEachRow(values, arguments: [first, last]) { row in
                guard let rank = counter.rank[row.int64(0)], let k = runOfRank[rank] else { return }
                totals[k].values.append(
                    RunTotals.Value(node: row.text(1) ?? "", value: row.double(2), target: row.optionalDouble(3)))
            }
            return Array(zip(runs, totals))
        }
    }
}

/// Counts each run's results in a range of run IDs, from the (runId, result) index.
struct ResultCounter: Sendable {
    static let sql = "SELECT runId, result FROM step INDEXED BY step_results WHERE runId BETWEEN ? AND ?"

    /// The selected runs: run ID → its place among their IDs in ascending order.
    let rank: [Int64: Int]

    /// `ids`: the selected runs' IDs, in ascending order.
    init(ids: [Int64]) { rank = ranks(ids) }

    /// (run's rank, counts) for each selected run of the range that has steps.
    typealias Counts = [(rank: Int, counts: (done: Int, skipped: Int, notScheduled: Int))]

    func count(_ db: Database, from first: Int64, to last: Int64) throws -> Counts {
        var state = State(rank: rank)
        try db.forEachRow(Self.sql, arguments: [first, last]) { state.read($0) }
        return state.counts
    }

    func count(_ connection: SecondConnection, from first: Int64, to last: Int64) -> Counts? {
        var state = State(rank: rank)
        guard connection.forEachRow(Self.sql, from: first, to: last, { state.read($0) }) else { return nil }
        return state.counts
    }

    private struct State {
        let rank: [Int64: Int]
        var counts: Counts = []
        var lastRun: Int64 = -1
        var current: Int?

        init(rank: [Int64: Int]) { self.rank = rank }

        mutating func read(_ row: Row) {
            let runID = row.int64(0)
            if runID != lastRun {
                lastRun = runID
                current = rank[runID].map { k in
                    counts.append((k, (0, 0, 0)))
                    return counts.count - 1
                }
            }
            guard let c = current, let result = row.stepResult(1) else { return }
            switch result {
            case .done: counts[c].counts.done += 1
            case .skipped: counts[c].counts.skipped += 1
            case .notScheduled: counts[c].counts.notScheduled += 1
            case .answered: break
            }
        }
    }
}
