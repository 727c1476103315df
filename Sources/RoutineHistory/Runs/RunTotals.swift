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
