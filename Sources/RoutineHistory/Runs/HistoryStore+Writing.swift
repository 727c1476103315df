import RoutineKit

extension HistoryStore {
    /// Adds `run` (without its steps) and returns its id and its start time. A run is known
    /// by its routine, date and start time; a run of the same routine that started in the
    /// same millisecond (two at once) is moved on by a millisecond until it is unique.
    public func insertRun(_ run: StoredRun) throws(HistoryError) -> (id: Int64, startedAt: Timestamp) {
        try writeAndSync { db in
            var run = run
            run.startedAt = try Self.uniqueStart(of: run, db)
            return (try Self.insertRun(run, db), run.startedAt)
        }
    }

    /// Adds one step to run `id`, in its own transaction: a killed process keeps it.
    public func insertStep(_ step: StoredStep, run id: Int64) throws(HistoryError) {
        try writeAndSync { db in try Self.insertStep(step, run: id, db) }
    }

    /// Adds a step of a run, as ``insertStep(_:run:)`` does, except that a habit done that a log
    /// or another run of the same day did meanwhile is recorded as passed over, with the
    /// reason: checked in the step's own transaction, so that a habit is never done twice.
    /// Returns the step as stored.
    public func insertRunStep(_ step: StoredStep, run id: Int64, routine: String, date: String) throws(HistoryError) -> StoredStep {
        try writeAndSync { db in
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

    /// Removes the steps of run `id` after step `count`: what `back` undid, or what no longer
    /// applies after a resume.
    public func deleteSteps(of id: Int64, after count: Int) throws(HistoryError) {
        try writeAndSync { db in
            try db.cachedStatement(sql: "DELETE FROM step WHERE runId = ? AND step > ?").execute(arguments: [id, count])
            try db.cachedStatement(sql: "DELETE FROM amendment WHERE runId = ? AND step > ?").execute(arguments: [id, count])
        }
    }

    /// Marks run `id` as going on again: no end, no result.
    public func reopen(_ id: Int64) throws(HistoryError) {
        try writeAndSync { db in
            try db.execute(sql: "UPDATE run SET endedAt = NULL, result = NULL, reachedEnd = 0 WHERE id = ?", arguments: [id])
        }
    }

    /// Records how run `id` ended.
    public func finish(_ id: Int64, result: RunResult, reachedEnd: Bool, at time: Timestamp) throws(HistoryError) {
        try writeAndSync { db in
            try db.execute(
                sql: "UPDATE run SET endedAt = ?, result = ?, reachedEnd = ? WHERE id = ?",
                arguments: [time.description, result.rawValue, reachedEnd, id])
        }
    }

    /// Adds each run whose routine, date and start time are not in the history yet, steps and
    /// all, in one transaction. Returns how many were added.
    public func insertRuns(_ runs: [StoredRun]) throws(HistoryError) -> Int {
        try writeAndSync { db in
            var added = 0
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM run WHERE routine = ? AND date = ? AND startedAt = ?")
            // In a synced history each new run's key goes to the outbox once, here, rather than
            // through the triggers of its run and of each of its steps: an import of years
            // into a synced history would pay them ten times a run.
            let synced = try SyncSchema.isInstalled(db)
            if synced { try db.execute(sql: "UPDATE syncState SET importing = 1") }
            let outbox = synced ? try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncOutbox VALUES ('run', ?, ?, ?)") : nil
            for run in runs {
                if try Bool.fetchOne(exists, arguments: [run.routine, run.date, run.startedAt.description]) == true { continue }
                let id = try Self.insertRun(run, db)
                for step in run.steps { try Self.insertStep(step, run: id, db) }
                try outbox?.execute(arguments: [run.routine, run.date, run.startedAt.description])
                added += 1
            }
            if synced { try db.execute(sql: "UPDATE syncState SET importing = 0") }
            return added
        }
    }

    /// `run`'s start, moved on by a millisecond at a time while a run of the same routine and
    /// day started then (two at once).
    static func uniqueStart(of run: StoredRun, _ db: Database) throws -> Timestamp {
        var start = run.startedAt
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM run WHERE routine = ? AND date = ? AND startedAt = ?")
        while try Bool.fetchOne(exists, arguments: [run.routine, run.date, start.description]) == true { start.milliseconds += 1 }
        return start
    }

    static func insertRun(_ run: StoredRun, _ db: Database) throws -> Int64 {
        try db.executeBinding(
            """
            INSERT INTO run (routine, path, sourceHash, date, startedAt, utcOffset, endedAt, result, reachedEnd, kind)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { row in
            row.text(run.routine)
            row.text(run.path)
            row.text(run.sourceHash)
            row.text(run.date)
            row.text(run.startedAt.description)
            row.int(run.utcOffset)
            row.text(run.endedAt?.description)
            row.text(run.result?.rawValue)
            row.bool(run.reachedEnd)
            row.text(run.kind.rawValue)
        }
        let id = db.lastInsertedRowID
        for amendment in run.amendments { try insertAmendment(amendment, run: id, db) }
        return id
    }

    static func insertStep(_ step: StoredStep, run id: Int64, _ db: Database) throws {
        let d = step.decision
        try db.executeBinding(
            """
            INSERT INTO step (runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { row in
            row.int(id)
            row.int(d.step)
            row.text(d.node)
            row.text(d.kind.rawValue)
            row.text(step.title)
            row.text(d.result.rawValue)
            row.double(d.value)
            row.double(step.target)
            row.text(step.unit)
            row.int(d.option)
            row.text(d.optionText)
            row.text(step.decidedAt.description)
            row.double(step.seconds)
            row.text(step.reason?.rawValue)
        }
    }

    static func insertAmendment(_ amendment: Amendment, run id: Int64, _ db: Database) throws {
        let before = amendment.before
        try db.cachedStatement(
            sql:
                "INSERT INTO amendment (runId, step, madeAt, added, result, value, seconds, optionIndex, optionText) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [
            id, amendment.step, amendment.madeAt.description, amendment.added, before?.result.rawValue, before?.value, before?.seconds,
            before?.option, before?.optionText,
        ])
    }
}
