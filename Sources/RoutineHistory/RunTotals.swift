import GRDB
import GRDBSQLite
import RoutineKit

/// What a run amounts to, for a listing: how many habits were done, skipped and passed over,
/// and the values of its numeric habits.
public struct RunTotals: Hashable, Sendable {
    public var done = 0
    public var skipped = 0
    public var notScheduled = 0
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
            count(step.decision.result)
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
        let runs = try runs(filter, withSteps: false)
        return try read { db in
            var position: [Int64: Int] = [:]
            for (k, run) in runs.enumerated() { if let id = run.id { position[id] = k } }
            var totals = [RunTotals](repeating: RunTotals(), count: runs.count)
            guard let first = position.keys.min(), let last = position.keys.max() else { return [] }
            var lastRun: Int64 = -1
            var k: Int?
            try db.forEachRawRow("SELECT runId, result FROM step INDEXED BY step_results WHERE runId BETWEEN ? AND ?", arguments: [first, last]) { raw in
                let runID = sqlite3_column_int64(raw, 0)
                if runID != lastRun {
                    lastRun = runID
                    k = position[runID]
                }
                guard let k, let text = sqlite3_column_text(raw, 1) else { return }
                // done, skipped, not-scheduled or answered: the schema allows no other.
                switch text[0] {
                case UInt8(ascii: "d"): totals[k].done += 1
                case UInt8(ascii: "s"): totals[k].skipped += 1
                case UInt8(ascii: "n"): totals[k].notScheduled += 1
                default: break
                }
            }
            // The planner takes the covering index on its own; naming it would fail on a
            // history that a read-only file kept at an older schema.
            let values = "SELECT runId, node, value, target FROM step WHERE runId BETWEEN ? AND ? AND value IS NOT NULL ORDER BY runId, step"
            try db.forEachRawRow(values, arguments: [first, last]) { raw in
                guard let k = position[sqlite3_column_int64(raw, 0)] else { return }
                totals[k].values.append(RunTotals.Value(node: columnText(raw, 1) ?? "", value: sqlite3_column_double(raw, 2), target: columnDouble(raw, 3)))
            }
            return Array(zip(runs, totals))
        }
    }
}
