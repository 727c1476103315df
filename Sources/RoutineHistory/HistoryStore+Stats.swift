import GRDB
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
            let sql = """
                SELECT runId, node, CASE result WHEN 'done' THEN 0 WHEN 'skipped' THEN 1 WHEN 'not-scheduled' THEN 2 ELSE 3 END,
                    value, seconds, optionIndex
                FROM step WHERE runId IN (SELECT id FROM run \(selection))
                ORDER BY runId, step
                """
            let results: [RecordedStep.Result] = [.done, .skipped, .notScheduled, .answered]
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                guard let k = position[row[0]], let node = nodes[row[1] as String] else { continue }
                let result = results[row[2] as Int]
                if result == .answered {
                    // A question; an answer past the options of today's routine is not counted.
                    if let option = row[5] as Int?, routine.isQuestion(node), option < routine.optionCount(of: node) {
                        runs[k].answers.append(StatsRun.Answer(question: node, option: option))
                    }
                } else if !routine.isQuestion(node) {
                    runs[k].steps.append(StatsRun.Step(node: node, result: result, value: row[3], seconds: row[4]))
                }
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
                SELECT step.node, count(DISTINCT run.date) FROM step JOIN run ON run.id = step.runId
                WHERE run.routine = ? AND run.date BETWEEN ? AND ? AND run.id IS NOT ? AND step.result = 'done'
                GROUP BY step.node
                """
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: sql, arguments: [routine, from, through, excluded]) { counts[row[0]] = row[1] }
            return counts
        }
    }
}
