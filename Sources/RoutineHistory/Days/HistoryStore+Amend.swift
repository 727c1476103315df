import RoutineKit

/// What an amendment sets a habit's record of a day to.
public struct AmendChange: Sendable, Hashable {
    /// `.done` or `.skipped`.
    public var result: RecordedStep.Result
    /// A numeric habit's value (done only).
    public var value: Double?
    /// How long it took, when given.
    public var seconds: Double?

    public init(result: RecordedStep.Result, value: Double? = nil, seconds: Double? = nil) {
        self.result = result
        self.value = value
        self.seconds = seconds
    }
}

/// One amendment as made or undone: the step it is about, before and after.
public struct AmendOutcome: Sendable, Hashable {
    public var runID: Int64
    public var date: String
    public var step: StoredStep
    public var amendment: Amendment
}

extension HistoryStore {
    /// Changes what `date` recorded for habit `id` of `routine`: the newest step of a run or log
    /// that day that reached it, or, when none did, a new log. The change is kept with when it
    /// was made and what the step held before, so that ``undoAmendment(of:)`` can revert it.
    public func amend(
        _ id: String, of routine: Routine, on date: CalendarDate, to change: AmendChange, path: String, sourceHash: String,
        now: Timestamp = .now()
    ) throws(HistoryError) -> Result<AmendOutcome, LogRefusal> {
        try writeAndSync { db in
            let rules = DayRules(routine: routine, facts: DayFacts(date: date), unconditional: [])
            let request = LogRequest(id: id, skip: change.result == .skipped, value: change.value, seconds: change.seconds, force: true)
            let index: Int
            switch rules.mayLog(request) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let found): index = found
            }
            let sql = """
                SELECT step.runId, step.step FROM run CROSS JOIN step ON step.runId = run.id
                WHERE run.routine = ? AND run.date = ? AND step.node = ? AND step.kind = 'habit'
                ORDER BY step.decidedAt DESC, run.id DESC LIMIT 1
                """
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [routine.name, date.description, id]) else {
                var log = Self.logRun(request, of: routine, node: index, on: date, path: path, sourceHash: sourceHash, now: now)
                let amendment = Amendment(step: 1, madeAt: now, added: true, before: nil)
                log.amendments = [amendment]
                let runID = try Self.insertUnique(log, db)
                return .success(AmendOutcome(runID: runID, date: date.description, step: log.steps[0], amendment: amendment))
            }
            return try self.changeUnlessSame(row[0], step: row[1], to: change, now: now, db)
        }
    }

    /// Changes step `number` of run `runID` (a run's or a log's habit step), keeping what it
    /// held: the studio's corrections of a step it shows. Nil when there is no such habit step;
    /// refused when the step already holds the change.
    public func amendStep(_ number: Int, of runID: Int64, to change: AmendChange, now: Timestamp = .now()) throws(HistoryError)
        -> Result<AmendOutcome, LogRefusal>?
    {
        try writeAndSync { db in
            let sql = "SELECT 1 FROM step WHERE runId = ? AND step = ? AND kind = 'habit'"
            guard try Bool.fetchOne(db, sql: sql, arguments: [runID, number]) == true else { return nil }
            return try self.changeUnlessSame(runID, step: number, to: change, now: now, db)
        }
    }

    /// Changes the day's answer to question `id` of `routine` on `date` (the answer of the
    /// newest run that day that answered it) to option `option`, keeping the option it held.
    /// Refused when no run answered it that day, or it already holds that option.
    public func amendAnswer(_ id: String, of routine: Routine, on date: CalendarDate, to option: Int, now: Timestamp = .now()) throws(HistoryError)
        -> Result<AmendOutcome, LogRefusal>
    {
        try writeAndSync { db in
            // The day's answer is the last given: the newest run by start, as the statistics take it.
            let sql = """
                SELECT step.runId, step.step FROM run CROSS JOIN step ON step.runId = run.id
                WHERE run.routine = ? AND run.date = ? AND step.node = ? AND step.kind = 'question'
                ORDER BY run.startedAt DESC, run.id DESC LIMIT 1
                """
            guard let index = routine.indexByID()[id], routine.isQuestion(index),
                let row = try Row.fetchOne(db, sql: sql, arguments: [routine.name, date.description, id])
            else {
                return .failure(.questionNotAnswered(id: id, date: date))
            }
            return try self.changeAnswer(row[0], step: row[1], of: index, in: routine, to: option, now: now, db)
        }
    }

    /// Changes the answer of step `number` of run `runID`, a question's step, to option
    /// `option` of `routine`: the studio's correction of an answer it shows. Nil when there is
    /// no such question step; refused when it already holds that option.
    public func amendAnswerStep(_ number: Int, of runID: Int64, in routine: Routine, to option: Int, now: Timestamp = .now()) throws(HistoryError)
        -> Result<AmendOutcome, LogRefusal>?
    {
        try writeAndSync { db in
            let sql = "SELECT node FROM step WHERE runId = ? AND step = ? AND kind = 'question'"
            guard let node = try String.fetchOne(db, sql: sql, arguments: [runID, number]), let index = routine.indexByID()[node],
                routine.isQuestion(index)
            else { return nil }
            return try self.changeAnswer(runID, step: number, of: index, in: routine, to: option, now: now, db)
        }
    }

    private func changeAnswer(_ runID: Int64, step number: Int, of index: Int, in routine: Routine, to option: Int, now: Timestamp, _ db: Database)
        throws
        -> Result<AmendOutcome, LogRefusal>
    {
        var step = try Self.step(runID, number, db, self)
        let date = try String.fetchOne(db, sql: "SELECT date FROM run WHERE id = ?", arguments: [runID]) ?? ""
        let text = routine.answer(option, of: index)
        if step.decision.option == option {
            return .failure(.answerUnchanged(id: routine.id(of: index), answer: text, date: CalendarDate(date) ?? .today()))
        }
        let before = Amendment.Before(result: .answered, seconds: step.seconds, option: step.decision.option, optionText: step.decision.optionText)
        let amendment = Amendment(step: number, madeAt: now, added: false, before: before)
        try Self.insertAmendment(amendment, run: runID, db)
        step.decision.option = option
        step.decision.optionText = text
        try db.execute(sql: "UPDATE step SET optionIndex = ?, optionText = ? WHERE runId = ? AND step = ?", arguments: [option, text, runID, number])
        return .success(AmendOutcome(runID: runID, date: date, step: step, amendment: amendment))
    }

    /// ``change(_:step:to:now:_:)``, refused (E501) when the step already holds what it would
    /// be changed to: an amendment that changes nothing is no amendment.
    private func changeUnlessSame(_ runID: Int64, step number: Int, to change: AmendChange, now: Timestamp, _ db: Database) throws
        -> Result<AmendOutcome, LogRefusal>
    {
        let step = try Self.step(runID, number, db, self)
        let d = step.decision
        if d.result == change.result, d.value == (change.result == .done ? change.value : nil), change.seconds == nil {
            let row = try Row.fetchOne(db, sql: "SELECT kind = 'log', utcOffset, date FROM run WHERE id = ?", arguments: [runID])
            let by = Completion(
                source: row?[0] == true ? .log : .run, time: step.decidedAt.clockTime(offset: row?[1] ?? 0), value: d.value,
                seconds: step.seconds ?? 0)
            let date = CalendarDate(row?[2] ?? "") ?? .today()
            return .failure(
                change.result == .done
                    ? .alreadyDone(id: d.node, title: step.title, date: date, by: by)
                    : .alreadySkipped(id: d.node, title: step.title, date: date, by: by))
        }
        return .success(try self.change(runID, step: number, to: change, now: now, db))
    }

    /// The run and step of the newest amendment of `routine`, and when it was made.
    public func newestAmendment(of routine: String) throws(HistoryError) -> (run: Int64, step: Int, madeAt: Timestamp)? {
        try read { db in
            let sql = """
                SELECT amendment.runId, amendment.step, amendment.madeAt FROM amendment CROSS JOIN run ON run.id = amendment.runId
                WHERE run.routine = ? ORDER BY amendment.id DESC LIMIT 1
                """
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [routine]) else { return nil }
            return (row[0], row[1], Timestamp(row[2] as String) ?? Timestamp(milliseconds: 0))
        }
    }

    private func change(_ runID: Int64, step number: Int, to change: AmendChange, now: Timestamp, _ db: Database) throws -> AmendOutcome {
        var step = try Self.step(runID, number, db, self)
        let before = Amendment.Before(result: step.decision.result, value: step.decision.value, seconds: step.seconds)
        let amendment = Amendment(step: number, madeAt: now, added: false, before: before)
        try Self.insertAmendment(amendment, run: runID, db)
        step.decision.result = change.result
        step.decision.value = change.result == .done ? change.value : nil
        step.seconds = change.seconds ?? step.seconds
        step.reason = nil
        try db.execute(
            sql: "UPDATE step SET result = ?, value = ?, seconds = ?, reason = NULL WHERE runId = ? AND step = ?",
            arguments: [step.decision.result.rawValue, step.decision.value, step.seconds, runID, number])
        let date = try String.fetchOne(db, sql: "SELECT date FROM run WHERE id = ?", arguments: [runID]) ?? ""
        return AmendOutcome(runID: runID, date: date, step: step, amendment: amendment)
    }

    /// Reverts the newest amendment of `routine`: the step gets back what it held, or the log
    /// the amendment added is removed. Nil when there is none, or when `expected` is given and
    /// the newest amendment is not of that run's step (a newer one was made meanwhile).
    public func undoAmendment(of routine: String, expected: (run: Int64, step: Int)? = nil) throws(HistoryError) -> AmendOutcome? {
        try writeAndSync { db in
            let sql = """
                SELECT amendment.id, amendment.runId, amendment.step, run.date FROM amendment CROSS JOIN run ON run.id = amendment.runId
                WHERE run.routine = ? ORDER BY amendment.id DESC LIMIT 1
                """
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [routine]) else { return nil }
            let (amendmentID, runID, number, date): (Int64, Int64, Int, String) = (row[0], row[1], row[2], row[3])
            if let expected, expected.run != runID || expected.step != number { return nil }
            var amendment: Amendment?
            try db.forEachRow("SELECT \(Amendment.columns(self)) FROM amendment WHERE id = ?", arguments: [amendmentID]) {
                amendment = Amendment(row: $0)
            }
            guard let amendment else { return nil }
            var step = try Self.step(runID, number, db, self)
            if let before = amendment.before, before.result == .answered {
                step.decision.option = before.option
                step.decision.optionText = before.optionText
                try db.execute(
                    sql: "UPDATE step SET optionIndex = ?, optionText = ? WHERE runId = ? AND step = ?",
                    arguments: [before.option, before.optionText, runID, number])
                try db.execute(sql: "DELETE FROM amendment WHERE id = ?", arguments: [amendmentID])
            } else if let before = amendment.before {
                step.decision.result = before.result
                step.decision.value = before.value
                step.seconds = before.seconds
                try db.execute(
                    sql: "UPDATE step SET result = ?, value = ?, seconds = ? WHERE runId = ? AND step = ?",
                    arguments: [before.result.rawValue, before.value, before.seconds, runID, number])
                try db.execute(sql: "DELETE FROM amendment WHERE id = ?", arguments: [amendmentID])
            } else {
                try Self.deleteRun(runID, db)
            }
            return AmendOutcome(runID: runID, date: date, step: step, amendment: amendment)
        }
    }

    static func step(_ runID: Int64, _ number: Int, _ db: Database, _ store: HistoryStore) throws -> StoredStep {
        var found: StoredStep?
        try db.forEachRow("SELECT \(StoredStep.columns(store)) FROM step WHERE runId = ? AND step = ?", arguments: [runID, number]) {
            found = StoredStep(row: $0)
        }
        guard let found else { throw DatabaseError(resultCode: .notFound, message: "step \(number) of run \(runID) is missing") }
        return found
    }
}
