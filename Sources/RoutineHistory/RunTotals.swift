import GRDB
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
    /// The runs `filter` selects, without their steps, each with its totals. Counted by
    /// SQLite rather than by reading every step: ten years of mornings list at once.
    public func runTotals(_ filter: RunFilter) throws(HistoryError) -> [(run: StoredRun, totals: RunTotals)] {
        let runs = try runs(filter, withSteps: false)
        return try read { db in
            var position: [Int64: Int] = [:]
            for (k, run) in runs.enumerated() { if let id = run.id { position[id] = k } }
            var totals = [RunTotals](repeating: RunTotals(), count: runs.count)
            let (selection, arguments) = filter.sql
            // Grouped by the step table's own key order, so SQLite sorts nothing.
            let counts = try Row.fetchCursor(db, sql: """
                SELECT runId, sum(result = 'done'), sum(result = 'skipped'), sum(result = 'not-scheduled') FROM step
                WHERE runId IN (SELECT id FROM run \(selection)) GROUP BY runId
                """, arguments: arguments)
            while let row = try counts.next() {
                guard let k = position[row[0]] else { continue }
                totals[k].done = row[1]
                totals[k].skipped = row[2]
                totals[k].notScheduled = row[3]
            }
            let values = try Row.fetchCursor(db, sql: """
                SELECT runId, node, value, target FROM step INDEXED BY step_values
                WHERE runId IN (SELECT id FROM run \(selection)) AND value IS NOT NULL ORDER BY runId, step
                """, arguments: arguments)
            while let row = try values.next() {
                guard let k = position[row[0]] else { continue }
                totals[k].values.append(RunTotals.Value(node: row[1], value: row[2], target: row[3]))
            }
            return Array(zip(runs, totals))
        }
    }
}
