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
            // comparison per habit and step, a dictionary one hash per step. Most runs take the
            // steps of the run before in the same order, so the node at the same place in the
            // previous run is tried first, by its bytes, without making a string.
            var nodes: [String: Int] = [:]
            for index in 0..<routine.nodeCount { nodes[routine.id(of: index)] = index }
            let idBytes = (0..<routine.nodeCount).map { Array(routine.id(of: $0).utf8) }
            var previousOrder: [Int] = []
            var order: [Int] = []
            // The selected runs' steps are one range of the step table's key (runId, step),
            // from the first run's ID to the last's, read in key order without a join; steps of
            // other runs inside the range (another routine's) are passed over by `position`.
            guard let first = position.keys.min(), let last = position.keys.max() else { return runs }
            let sql = "SELECT runId, node, result, value, seconds, optionIndex FROM step WHERE runId BETWEEN ? AND ?"
            let stepArguments: StatementArguments = [first, last]
            // A result told by its first letter: done, skipped, not-scheduled, answered (the
            // schema allows no other).
            func decodedResult(_ letter: UInt8) -> RecordedStep.Result {
                switch letter {
                case UInt8(ascii: "d"): .done
                case UInt8(ascii: "s"): .skipped
                case UInt8(ascii: "n"): .notScheduled
                default: .answered
                }
            }
            // Steps come ordered by run: one lookup of the run per run, not per step, and each
            // run's steps are a range of one array rather than an array of their own.
            var lastRun: Int64 = -1
            var lastPosition: Int?
            var steps: [StatsRun.Step] = []
            // Room for a routine's steps in every run at once: growing by doubling would copy
            // megabytes and touch fresh pages each time.
            steps.reserveCapacity(runs.count * max(1, routine.nodeCount))
            var ranges: [(run: Int, start: Int)] = []
            ranges.reserveCapacity(runs.count)
            try db.forEachRawRow(sql, arguments: stepArguments) { raw in
                let runID = sqlite3_column_int64(raw, 0)
                if runID != lastRun {
                    lastRun = runID
                    lastPosition = position[runID]
                    if let k = lastPosition { ranges.append((k, steps.count)) }
                    swap(&previousOrder, &order)
                    order.removeAll(keepingCapacity: true)
                }
                guard let k = lastPosition, let text = sqlite3_column_text(raw, 1) else { return }
                let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, 1)))
                let node: Int
                if order.count < previousOrder.count, case let guess = previousOrder[order.count], guess >= 0,
                    idBytes[guess].elementsEqual(bytes)
                {
                    node = guess
                } else {
                    node = nodes[String(decoding: bytes, as: UTF8.self)] ?? -1
                }
                order.append(node)
                guard node >= 0 else { return }
                guard let resultText = sqlite3_column_text(raw, 2) else { return }
                let result = decodedResult(resultText[0])
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
