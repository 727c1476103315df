import RoutineKit

extension HistoryStore {
    /// Records `request` as a log of `routine` on `date`, or refuses it by ``DayRules/mayLog(_:)``.
    /// The rules are read and the log written in one transaction, so that two logs (or a log
    /// and a run) at once never both complete a habit. Returns the log as stored.
    public func log(
        _ request: LogRequest, of routine: Routine, on date: CalendarDate, path: String, sourceHash: String, now: Timestamp = .now()
    ) throws(HistoryError) -> Result<StoredRun, LogRefusal> {
        try writeAndSync { db in
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
        try writeAndSync { db in
            let sql = """
                SELECT run.id FROM run CROSS JOIN step ON step.runId = run.id
                WHERE run.kind = 'log' AND run.routine = ? AND run.date = ? AND step.node = ?
                ORDER BY run.startedAt DESC, run.id DESC LIMIT 1
                """
            guard let runID = try Int64.fetchOne(db, sql: sql, arguments: [routine, date.description, id]) else { return nil }
            var found: StoredRun?
            try db.forEachRow("SELECT \(StoredRun.columns(self)) FROM run WHERE id = ?", arguments: [runID]) { found = StoredRun(row: $0) }
            try db.forEachRow("SELECT \(StoredStep.columns(self)) FROM step WHERE runId = ? ORDER BY step", arguments: [runID]) {
                found?.steps.append(StoredStep(row: $0))
            }
            try Self.deleteRun(runID, db)
            return found
        }
    }

}
