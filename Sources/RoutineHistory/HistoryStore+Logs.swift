import GRDB
import GRDBSQLite
import RoutineKit

extension HistoryStore {
    /// What the history says about `routine` on `date` (``DayFacts``), leaving out run `excluded`
    /// (one being resumed, whose own steps are replayed).
    public func dayFacts(of routine: Routine, on date: CalendarDate, excluding excluded: Int64? = nil) throws(HistoryError) -> DayFacts {
        try read { db in try dayFacts(db, routine, date, excluding: excluded) }
    }

    /// The habits a log or another run already did on `date`, by node index, with the first
    /// one that did each: what a run of that day passes over (run `excluded` left out).
    public func doneEarlier(of routine: Routine, on date: CalendarDate, excluding excluded: Int64? = nil) throws(HistoryError) -> [Int: Completion] {
        DayRules(routine: routine, facts: try dayFacts(of: routine, on: date, excluding: excluded), unconditional: []).completions
    }

    func dayFacts(_ db: Database, _ routine: Routine, _ date: CalendarDate, excluding excluded: Int64?) throws -> DayFacts {
        var facts = DayFacts(date: date)
        let day = date.description
        let kind = hasLogColumns ? "kind" : "'run'"
        try db.forEachRawRow(
            "SELECT \(kind) = 'log', result = 'completed' FROM run WHERE routine = ? AND date = ? AND id IS NOT ?",
            arguments: [routine.name, day, excluded]
        ) { raw in
            guard sqlite3_column_int64(raw, 0) == 0 else { return }
            facts.hadRun = true
            if sqlite3_column_int64(raw, 1) != 0 { facts.runCompleted = true }
        }
        let ids = routine.indexByID()
        var doneDays: [Int: Set<String>] = [:]
        let sql = """
            SELECT run.date, run.\(kind) = 'log', run.utcOffset, step.node, step.result, step.value, step.seconds, step.decidedAt
            FROM run CROSS JOIN step ON step.runId = run.id
            WHERE run.routine = ? AND run.date BETWEEN ? AND ? AND run.id IS NOT ? AND step.kind = 'habit'
            ORDER BY run.date, step.decidedAt, run.id, step.step
            """
        try db.forEachRawRow(sql, arguments: [routine.name, date.weekStart.description, day, excluded]) { raw in
            guard let rowDay = columnText(raw, 0), let node = columnText(raw, 3).flatMap({ ids[$0] }),
                let result = columnResult(raw, 4)
            else { return }
            if rowDay != day {
                if result == .done { doneDays[node, default: []].insert(rowDay) }
                return
            }
            let at = columnBytes(raw, 7).flatMap(Timestamp.init(utf8:)) ?? Timestamp(milliseconds: 0)
            facts.entries.append(
                DayEntry(
                    node: node, result: result, value: columnDouble(raw, 5), seconds: sqlite3_column_double(raw, 6),
                    source: sqlite3_column_int64(raw, 1) != 0 ? .log : .run, time: at.clockTime(offset: Int(sqlite3_column_int64(raw, 2)))))
        }
        facts.doneEarlierThisWeek = doneDays.mapValues(\.count)
        if facts.hadRun, !facts.runCompleted, let reachable = try stillReachable(db, routine, facts, excluding: excluded) {
            facts.stillReachable = reachable
            facts.reachableAreCertain = !reachable.contains { routine.isQuestion($0) || routine.targets(of: $0).contains(.end) }
        }
        return facts
    }

    /// The nodes the day's newest run can still reach, replayed from its steps as a resume
    /// would; nil when there is none. A step the replay cannot take (the routine changed)
    /// stops it there, so that more is kept reachable, never less.
    private func stillReachable(_ db: Database, _ routine: Routine, _ facts: DayFacts, excluding excluded: Int64?) throws -> Set<Int>? {
        let kind = hasLogColumns ? "kind = 'run' AND " : ""
        let sql =
            "SELECT \(StoredRun.columns(self)) FROM run WHERE \(kind)routine = ? AND date = ? AND id IS NOT ? ORDER BY startedAt DESC, id DESC LIMIT 1"
        var found: StoredRun?
        try db.forEachRawRow(sql, arguments: [routine.name, facts.date.description, excluded]) { found = StoredRun(raw: $0) }
        guard var stored = found, let id = stored.id else { return nil }
        try db.forEachRawRow("SELECT \(StoredStep.columns(self)) FROM step WHERE runId = ? ORDER BY step", arguments: [id]) {
            stored.steps.append(StoredStep(raw: $0))
        }
        let earlier = DayRules(routine: routine, facts: facts, unconditional: []).completions
        let plan = ResumePlan(stored, routine: routine, date: facts.date, doneThisWeek: facts.doneEarlierThisWeek, doneEarlier: earlier)
        return Set((0..<routine.nodeCount).filter { plan.run.canStillRun($0) })
    }

    /// Records `request` as a log of `routine` on `date`, or refuses it by ``DayRules/mayLog(_:)``.
    /// The rules are read and the log written in one transaction, so that two logs (or a log
    /// and a run) at once never both complete a habit. Returns the log as stored.
    public func log(
        _ request: LogRequest, of routine: Routine, on date: CalendarDate, path: String, sourceHash: String, now: Timestamp = .now()
    ) throws(HistoryError) -> Result<StoredRun, LogRefusal> {
        try write { db in
            let rules = DayRules(routine: routine, facts: try dayFacts(db, routine, date, excluding: nil), unconditional: [])
            switch rules.mayLog(request) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let index):
                var run = Self.logRun(request, of: routine, node: index, on: date, path: path, sourceHash: sourceHash, now: now)
                run.id = try Self.insertUnique(run, db)
                return .success(run)
            }
        }
    }

    /// A log as a run of its own kind: completed at `now`, with one step.
    static func logRun(
        _ request: LogRequest, of routine: Routine, node index: Int, on date: CalendarDate, path: String, sourceHash: String,
        now: Timestamp
    ) -> StoredRun {
        let target = routine.target(of: index)
        let step = StoredStep(
            decision: RecordedStep(
                step: 1, node: routine.id(of: index), kind: .habit, result: request.skip ? .skipped : .done,
                value: request.skip ? nil : request.value),
            title: routine.title(of: index), target: target?.amount, unit: target?.unit, decidedAt: now, seconds: request.seconds)
        return StoredRun(
            routine: routine.name, path: path, sourceHash: sourceHash, date: date.description, startedAt: now, utcOffset: now.localOffset,
            endedAt: now, result: .completed, kind: .log, steps: [step])
    }

    /// Inserts `run` and its steps; a run of the same routine and day that started in the same
    /// millisecond moves it on by a millisecond until it is unique.
    static func insertUnique(_ run: StoredRun, _ db: Database) throws -> Int64 {
        var run = run
        run.startedAt = try uniqueStart(of: run, db)
        let id = try insertRun(run, db)
        for step in run.steps { try insertStep(step, run: id, db) }
        return id
    }

    /// Removes the newest log of habit `id` of `routine` on `date` (never a step of a run), and
    /// returns it; nil when there is none.
    public func undoLog(of id: String, routine: String, on date: CalendarDate) throws(HistoryError) -> StoredRun? {
        try write { db in
            let sql = """
                SELECT run.id FROM run CROSS JOIN step ON step.runId = run.id
                WHERE run.kind = 'log' AND run.routine = ? AND run.date = ? AND step.node = ?
                ORDER BY run.startedAt DESC, run.id DESC LIMIT 1
                """
            guard let runID = try Int64.fetchOne(db, sql: sql, arguments: [routine, date.description, id]) else { return nil }
            var found: StoredRun?
            try db.forEachRawRow("SELECT \(StoredRun.columns(self)) FROM run WHERE id = ?", arguments: [runID]) { found = StoredRun(raw: $0) }
            try db.forEachRawRow("SELECT \(StoredStep.columns(self)) FROM step WHERE runId = ? ORDER BY step", arguments: [runID]) {
                found?.steps.append(StoredStep(raw: $0))
            }
            try Self.deleteRun(runID, db)
            return found
        }
    }

    /// Removes run `id` with its steps and amendments.
    static func deleteRun(_ id: Int64, _ db: Database) throws {
        for table in ["amendment", "step"] { try db.execute(sql: "DELETE FROM \(table) WHERE runId = ?", arguments: [id]) }
        try db.execute(sql: "DELETE FROM run WHERE id = ?", arguments: [id])
    }

    /// Adds a step of a run, as ``insertStep(_:run:)`` does, except that a habit done that a log
    /// or another run of the same day did meanwhile is recorded as passed over, with the
    /// reason: checked in the step's own transaction, so that a habit is never done twice.
    /// Returns the step as stored.
    public func insertRunStep(_ step: StoredStep, run id: Int64, routine: String, date: String) throws(HistoryError) -> StoredStep {
        try write { db in
            var step = step
            if step.decision.kind == .habit, step.decision.result == .done {
                let sql = """
                    SELECT run.kind = 'log' FROM run CROSS JOIN step ON step.runId = run.id
                    WHERE run.routine = ? AND run.date = ? AND run.id != ? AND step.node = ? AND step.result = 'done' LIMIT 1
                    """
                if let byLog = try Bool.fetchOne(db, sql: sql, arguments: [routine, date, id, step.decision.node]) {
                    step.decision.result = .notScheduled
                    step.decision.value = nil
                    step.reason = byLog ? .doneByLog : .doneByRun
                }
            }
            try Self.insertStep(step, run: id, db)
            return step
        }
    }
}

extension HistoryStore {
    /// The files of the routines run (or logged) since `since`: for each routine the path its
    /// newest record gave, newest routine first.
    public func recentRoutinePaths(since: String) throws(HistoryError) -> [String] {
        try read { db in
            let sql = """
                SELECT path FROM run AS r WHERE date >= ? AND path != '-'
                AND id = (SELECT id FROM run WHERE routine = r.routine ORDER BY date DESC, startedAt DESC LIMIT 1)
                ORDER BY date DESC, startedAt DESC
                """
            return try String.fetchAll(db, sql: sql, arguments: [since])
        }
    }
}
