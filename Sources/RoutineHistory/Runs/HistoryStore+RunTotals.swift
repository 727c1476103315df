import RoutineKit

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
            if flags.hasLogColumns {
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
