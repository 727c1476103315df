import Foundation
import HTTPTypes
import RoutineHistory
import RoutineKit
import Synchronization

/// A day's record and its corrections: `GET /api/day` as `routine log FILE --date D --json`
/// reads it, corrections through the history's amendments (as `routine amend` writes them),
/// and whole runs deleted and put back while the studio runs.
struct StudioCorrections: Sendable {
    typealias Answer = StudioToday.Answer

    /// The history file; nil when the studio records nothing.
    let historyPath: String?
    /// The runs deleted from this studio, kept so that the page can put them back.
    let deleted = DeletedRuns()

    final class DeletedRuns: Sendable {
        private let runs = Mutex<[Int64: DeletedRun]>([:])
        func keep(_ run: DeletedRun) { runs.withLock { $0[run.id] = run } }
        func take(_ id: Int64) -> DeletedRun? { runs.withLock { $0.removeValue(forKey: id) } }
    }

    /// `GET /api/day`: the day's runs and logs of the studio's routine, and its day off.
    func day(_ loaded: LoadedRoutine, date text: String?) -> Answer {
        guard let text else { return Self.malformed("'date' is missing: /api/day?date=YYYY-MM-DD") }
        return StudioToday.readDay(loaded, date: text, historyPath: historyPath) { routine, date, store throws(HistoryError) in
            try Self.json(routine, on: date, store: store)
        }
    }

    /// `POST /api/correct`: one step changed, or a habit nothing recorded added as a log.
    func correct(_ loaded: LoadedRoutine, path: String, body bytes: [UInt8]) -> Answer {
        let correction: StudioCorrectionBody.Correction
        do { correction = try StudioCorrectionBody.correction(bytes) } catch { return Self.malformed(error.reason) }
        return writing(loaded) { routine, store throws(HistoryError) in
            switch correction.target {
            case .habit(let id, let date):
                switch try store.amend(id, of: routine, on: date, to: correction.change, path: path, sourceHash: sourceHash(loaded.file.bytes)) {
                case .failure(let refusal): return try Self.refused(refusal, routine, on: date, store)
                case .success(let outcome): return try Self.done(outcome, "correction", routine, store)
                }
            case .step(let runID, let number):
                if let answer = correction.answer { return try Self.correctAnswer(answer, step: number, of: runID, routine, store) }
                guard let run = try store.run(id: runID), run.routine == routine.name,
                    let step = run.steps.first(where: { $0.decision.step == number && $0.decision.kind == .habit })
                else { return Self.stale(.stepNotRecorded(run: runID, step: number)) }
                let date = CalendarDate(run.date) ?? .today()
                // The routine's rules for what a habit takes: an unknown node, a value missing or not expected.
                let rules = DayRules(routine: routine, facts: DayFacts(date: date), unconditional: [])
                let request = LogRequest(
                    id: step.decision.node, skip: correction.result == .skipped, value: correction.value, seconds: correction.seconds, force: true)
                if case .failure(let refusal) = rules.mayLog(request) { return try Self.refused(refusal, routine, on: date, store) }
                switch try store.amendStep(number, of: runID, to: correction.change) {
                case nil: return Self.stale(.stepNotRecorded(run: runID, step: number))
                case .failure(let refusal)?: return try Self.refused(refusal, routine, on: date, store)
                case .success(let outcome)?: return try Self.done(outcome, "correction", routine, store)
                }
            }
        }
    }

    /// A question's recorded answer changed, as `routine amend FILE DATE QUESTION ANSWER` does.
    static func correctAnswer(_ answer: String, step number: Int, of runID: Int64, _ routine: Routine, _ store: HistoryStore) throws(HistoryError)
        -> Answer
    {
        guard let run = try store.run(id: runID), run.routine == routine.name,
            let step = run.steps.first(where: { $0.decision.step == number && $0.decision.kind == .question }),
            let question = routine.indexByID()[step.decision.node], routine.isQuestion(question)
        else { return stale(.stepNotRecorded(run: runID, step: number)) }
        let date = CalendarDate(run.date) ?? .today()
        let option: Int
        switch routine.option(answer, of: question) {
        case .failure(let refusal): return try refused(refusal, routine, on: date, store)
        case .success(let found): option = found
        }
        switch try store.amendAnswerStep(number, of: runID, in: routine, to: option) {
        case nil: return stale(.stepNotRecorded(run: runID, step: number))
        case .failure(let refusal)?: return try refused(refusal, routine, on: date, store)
        case .success(let outcome)?: return try done(outcome, "correction", routine, store)
        }
    }

    /// `POST /api/correct/undo`: the newest correction of the routine taken back, as
    /// `routine amend --undo` does; with `{run, step}`, only when it is that step's.
    func undo(_ loaded: LoadedRoutine, body bytes: [UInt8]) -> Answer {
        let expected: (run: Int64, step: Int)?
        do { expected = try StudioCorrectionBody.undo(bytes) } catch { return Self.malformed(error.reason) }
        return writing(loaded) { routine, store throws(HistoryError) in
            if let outcome = try store.undoAmendment(of: routine.name, expected: expected) {
                return try Self.done(outcome, "undone", routine, store)
            }
            if try store.newestAmendment(of: routine.name) == nil {
                return (.unprocessableContent, StudioState.refusal(.nothingToAmend(routine.name), state: nil))
            }
            return Self.stale(.newerAmendment(routine.name))
        }
    }

    /// `POST /api/run/delete`: a whole run or log taken out, kept here to be put back.
    func deleteRun(_ loaded: LoadedRoutine, body bytes: [UInt8]) -> Answer {
        let id: Int64
        do { id = try StudioCorrectionBody.run(bytes) } catch { return Self.malformed(error.reason) }
        return writing(loaded) { routine, store throws(HistoryError) in
            guard let run = try store.run(id: id), run.routine == routine.name else { return Self.stale(.stepNotRecorded(run: id, step: nil)) }
            if run.endedAt == nil { return Self.stale(.runStillGoing(run: id)) }
            guard let deleted = try store.deleteRun(id: id) else { return Self.stale(.stepNotRecorded(run: id, step: nil)) }
            self.deleted.keep(deleted)
            let about: JSONValue = .object([
                ("run", .int(Int(deleted.id))), ("date", .string(run.date)), ("time", .string(run.startedAt.clockTime(offset: run.utcOffset))),
                ("kind", .string(run.kind.rawValue)), ("steps", .int(run.steps.count)), ("line", HistoryJSON.encode(run)),
            ])
            return (.ok, try Self.json(routine, on: CalendarDate(run.date) ?? .today(), store: store, extra: ("deleted", about)))
        }
    }

    /// `POST /api/run/restore`: a run deleted from this studio put back as it was.
    func restoreRun(_ loaded: LoadedRoutine, body bytes: [UInt8]) -> Answer {
        let id: Int64
        do { id = try StudioCorrectionBody.run(bytes) } catch { return Self.malformed(error.reason) }
        return writing(loaded) { routine, store throws(HistoryError) in
            guard let deleted = self.deleted.take(id) else { return Self.stale(.nothingToRestore(run: id)) }
            let run = deleted.run
            let date = CalendarDate(run.date) ?? .today()
            let restored: Result<Int64, RestoreRefusal>
            do throws(HistoryError) { restored = try store.restore(deleted) } catch {
                // Not put back: the page may try again.
                self.deleted.keep(deleted)
                throw error
            }
            switch restored {
            case .failure:
                let refusal = Diagnostic.runStartTaken(date: run.date, time: run.startedAt.clockTime(offset: run.utcOffset))
                return (.conflict, StudioState.refusal(refusal, state: try Self.json(routine, on: date, store: store)))
            case .success(let back):
                return (.ok, try Self.json(routine, on: date, store: store, extra: ("restored", .object([("run", .int(Int(back)))]))))
            }
        }
    }
}

extension StudioCorrections {
    /// Runs `body` on the writable history, after the refusals every write shares: a
    /// routine with errors (422), no history (422, E508), a history that fails (500).
    func writing(_ loaded: LoadedRoutine, _ body: (Routine, HistoryStore) throws(HistoryError) -> Answer) -> Answer {
        if let invalid = StudioToday.invalid(loaded) { return invalid }
        guard let historyPath else { return StudioToday.refusal(.noHistoryForLog(), .unprocessableContent) }
        do {
            guard let store = try HistoryStore.open(historyPath, create: true) else {
                return StudioToday.refusal(.noHistoryForLog(), .unprocessableContent)
            }
            return try body(loaded.routine, store)
        } catch {
            return StudioToday.refusal(error.diagnostic, .internalServerError)
        }
    }

    /// The day's JSON (``DayRecord/json``) of `routine`, with `missing`: the habits the
    /// statistics call missed that day (due, nothing recorded), which the day view offers to
    /// add; and one more member when given.
    static func json(_ routine: Routine, on date: CalendarDate, store: HistoryStore?, extra: (String, JSONValue)? = nil) throws(HistoryError)
        -> [UInt8]
    {
        var json = try store?.dayRecord(of: routine.name, on: date).json ?? DayRecord(date: date).json
        if case .object(var members) = json {
            let missed = try StatsLoading.day(date, of: routine, store: store).filter { $0.day.status == .missed }
            members.append(
                (
                    "missing",
                    .array(
                        missed.map { habit in
                            let target = routine.target(of: habit.index)
                            return .object([
                                ("node", .string(routine.id(of: habit.index))), ("title", .string(routine.title(of: habit.index))),
                                ("target", target.map { .number($0.amount) } ?? .null), ("unit", target?.unit.map(JSONValue.string) ?? .null),
                            ])
                        })
                ))
            if let extra { members.append(extra) }
            json = .object(members)
        }
        var out = ByteWriter()
        json.write(to: &out)
        return out.bytes
    }

    /// A correction made or undone: the day it changed, and what changed.
    static func done(_ outcome: AmendOutcome, _ name: String, _ routine: Routine, _ store: HistoryStore) throws(HistoryError) -> Answer {
        var about: [(String, JSONValue)] = [
            ("run", .int(Int(outcome.runID))), ("step", .int(outcome.step.decision.step)), ("node", .string(outcome.step.decision.node)),
            ("title", .string(outcome.step.title)), ("at", .string(outcome.amendment.madeAt.description)), ("added", .bool(outcome.amendment.added)),
        ]
        if let before = outcome.amendment.before {
            var was: [(String, JSONValue)] = [("result", .string(before.result.rawValue)), ("value", before.value.map(JSONValue.number) ?? .null)]
            if let option = before.optionText { was.append(("option", .string(option))) }
            about.append(("before", .object(was)))
        }
        return (.ok, try json(routine, on: CalendarDate(outcome.date) ?? .today(), store: store, extra: (name, .object(about))))
    }

    /// A refusal of the log rules: 409 for done or skipped already, else 422; the day as `state`.
    static func refused(_ refusal: LogRefusal, _ routine: Routine, on date: CalendarDate, _ store: HistoryStore) throws(HistoryError) -> Answer {
        (
            StudioToday.isAlreadyDone(refusal) ? .conflict : .unprocessableContent,
            StudioState.refusal(refusal.diagnostic, state: try json(routine, on: date, store: store))
        )
    }

    /// What the page showed is not in the history any more: 409.
    static func stale(_ diagnostic: Diagnostic) -> Answer { (.conflict, StudioState.refusal(diagnostic, state: nil)) }

    static func malformed(_ reason: String) -> Answer {
        StudioToday.refusal(Diagnostic(.editRefused, reason, at: nil), .badRequest)
    }
}
