import RoutineKit

extension HistoryStore {
    /// The runs `filter` selects as the statistics read them: day, whether it completed, and
    /// each step's node, result, value and time, without titles or timestamps (ten years
    /// of daily runs are read in tens of milliseconds). Oldest first, a day's runs in the
    /// order they started, whatever the filter's order: a day's answer is its last run's.
    public func statsRuns(_ filter: RunFilter, of routine: Routine) throws(HistoryError) -> [StatsRun] {
        try statsRuns(filter, of: routine, runsForTwoThreads: SecondConnection.runsWorthIt)
    }

    /// `runsForTwoThreads`: from how many runs the older half's steps are read on another thread.
    func statsRuns(_ filter: RunFilter, of routine: Routine, runsForTwoThreads: Int) throws(HistoryError) -> [StatsRun] {
        try read { db in
            // The selected runs' steps are one range of the step table's key (runId, step),
            // from the first run's ID to the last's, read in key order without a join; steps of
            // other runs inside the range (another routine's) are passed over.
            let ids = try Self.runIDs(db, filter)
            let reader = StepReader(routine: routine, ids: ids)
            var runs: [StatsRun] = []
            // Nil for a run left out of the list (a date that cannot be read): its steps go nowhere.
            var runOfRank = [Int?](repeating: nil, count: ids.count)
            let scans = try SecondConnection.split(ids, path: location, from: runsForTwoThreads) { other, first, last in
                reader.scan(other, from: first, to: last)
            } meanwhile: {
                let (selection, arguments) = filter.sql
                let isLog = flags.hasLogColumns ? "kind = 'log'" : "0"
                try db.forEachRow("SELECT id, date, result = 'completed', \(isLog) FROM run \(selection)", arguments: arguments) { row in
                    guard let rank = reader.rank[row.int64(0)], let text = row.text(1), let date = CalendarDate(text) else {
                        return
                    }
                    runOfRank[rank] = runs.count
                    var run = StatsRun(date: date, completed: row.bool(2), steps: [])
                    run.isLog = row.bool(3)
                    runs.append(run)
                }
            } main: { first, last in
                try reader.scan(db, from: first, to: last)
            }
            for scan in scans {
                for (k, range) in scan.ranges.enumerated() {
                    guard let run = runOfRank[range.rank] else { continue }
                    let end = k + 1 < scan.ranges.count ? scan.ranges[k + 1].start : scan.steps.count
                    runs[run].steps = scan.steps[range.start..<end]
                }
                for (rank, answer) in scan.answers {
                    if let run = runOfRank[rank] { runs[run].answers.append(answer) }
                }
            }
            if flags.hasAnswerAmendments {
                let (selection, arguments) = filter.sql
                let sql = "SELECT DISTINCT runId FROM amendment WHERE result = 'answered' AND runId IN (SELECT id FROM run \(selection))"
                try db.forEachRow(sql, arguments: arguments) { row in
                    if let rank = reader.rank[row.int64(0)], let run = runOfRank[rank] { runs[run].answersAmended = true }
                }
            }
            return filter.oldestFirst ? runs : runs.reversed()
        }
    }
}

extension HistoryStore {
    /// On how many days from `from` through `through` each node of `routine` was done, by node
    /// ID, leaving out the run `excluded` (one being resumed, whose steps are replayed).
    public func doneDays(of routine: String, from: String, through: String, excluding excluded: Int64? = nil) throws(HistoryError) -> [String: Int] {
        try read { db in
            let sql = """
                SELECT step.node, count(DISTINCT run.date) FROM run CROSS JOIN step ON step.runId = run.id
                WHERE run.routine = ? AND run.date BETWEEN ? AND ? AND run.id IS NOT ? AND step.result = 'done'
                GROUP BY step.node
                """
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: sql, arguments: [routine, from, through, excluded]) { counts[row[0]] = row[1] }
            return counts
        }
    }
}
