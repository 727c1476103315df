import GRDB
import GRDBSQLite
import RoutineKit

extension HistoryStore {
    /// The runs `filter` selects as the statistics read them: day, whether it completed, and
    /// each step's node, result, value and time, without titles or timestamps (ten years
    /// of daily runs are read in tens of milliseconds).
    public func statsRuns(_ filter: RunFilter, of routine: Routine) throws(HistoryError) -> [StatsRun] {
        try read { db in
            let (selection, arguments) = filter.sql
            var runs: [StatsRun] = []
            var position: [Int64: Int] = [:]
            let runCursor = try Row.fetchCursor(db, sql: "SELECT id, date, result = 'completed' FROM run \(selection)", arguments: arguments)
            while let row = try runCursor.next() {
                guard let date = CalendarDate(row[1] as String) else { continue }
                position[row[0]] = runs.count
                runs.append(StatsRun(date: date, completed: row[2] ?? false, steps: []))
            }
            // Node IDs are matched to indices here: a CASE of every habit in the query costs a
            // comparison per habit and step, a dictionary one hash per step.
            var nodes: [String: Int] = [:]
            for index in 0..<routine.nodeCount { nodes[routine.id(of: index)] = index }
            // Each run's steps are one range of the step table's key (runId, step), read in
            // step order; an IN over the runs would cost a lookup per step.
            var conditions = ["1"]
            var stepArguments: StatementArguments = []
            if let routine = filter.routine { conditions.append("run.routine = ?"); stepArguments += [routine] }
            if let since = filter.since { conditions.append("run.date >= ?"); stepArguments += [since] }
            if let until = filter.until { conditions.append("run.date <= ?"); stepArguments += [until] }
            let sql = """
                SELECT step.runId, step.node,
                    CASE step.result WHEN 'done' THEN 0 WHEN 'skipped' THEN 1 WHEN 'not-scheduled' THEN 2 ELSE 3 END,
                    step.value, step.seconds, step.optionIndex
                FROM run CROSS JOIN step ON step.runId = run.id
                WHERE \(conditions.joined(separator: " AND "))
                """
            let results: [RecordedStep.Result] = [.done, .skipped, .notScheduled, .answered]
            // Stepped through SQLite's own calls: a GRDB row per step costs more than the
            // query (ten years are 110,000 steps), and every column here is a plain value.
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(stepArguments)
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            // Steps come ordered by run: one lookup of the run per run, not per step, and each
            // run's steps are a range of one array rather than an array of their own.
            var lastRun: Int64 = -1
            var lastPosition: Int?
            var steps: [StatsRun.Step] = []
            var ranges: [(run: Int, start: Int)] = []
            while true {
                let code = sqlite3_step(raw)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))) }
                let runID = sqlite3_column_int64(raw, 0)
                if runID != lastRun {
                    lastRun = runID
                    lastPosition = position[runID]
                    if let k = lastPosition { ranges.append((k, steps.count)) }
                }
                guard let k = lastPosition, let text = sqlite3_column_text(raw, 1) else { continue }
                let id = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, 1))), as: UTF8.self)
                guard let node = nodes[id] else { continue }
                let result = results[Int(sqlite3_column_int(raw, 2))]
                if result == .answered {
                    // A question; an answer past the options of today's routine is not counted.
                    let option = Int(sqlite3_column_int64(raw, 5))
                    if sqlite3_column_type(raw, 5) != SQLITE_NULL, routine.isQuestion(node), option < routine.optionCount(of: node) {
                        runs[k].answers.append(StatsRun.Answer(question: node, option: option))
                    }
                } else if !routine.isQuestion(node) {
                    let value = sqlite3_column_type(raw, 3) == SQLITE_NULL ? nil : sqlite3_column_double(raw, 3)
                    steps.append(StatsRun.Step(node: node, result: result, value: value, seconds: sqlite3_column_double(raw, 4)))
                }
            }
            for (k, range) in ranges.enumerated() {
                let end = k + 1 < ranges.count ? ranges[k + 1].start : steps.count
                runs[range.run].steps = steps[range.start..<end]
            }
            return runs
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
