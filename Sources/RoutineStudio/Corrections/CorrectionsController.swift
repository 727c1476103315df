import Hummingbird
import RoutineHistory
import RoutineKit

/// A day's record and its corrections: GET /api/day as `routine log FILE --date D --json`
/// reads it, and POST /api/correct and /api/correct/undo through the history's amendments, as
/// `routine amend` writes them (docs/studio.md).
struct CorrectionsController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("day", use: day)
            .post("correct", use: correct)
            .post("correct/undo", use: undo)
    }

    /// The day's runs and logs of the studio's routine, and its day off.
    @Sendable func day(_ request: Request, context: Context) async throws -> Response {
        guard let date = request.uri.queryParameters["date"].map(String.init) else {
            throw StudioError.malformed("'date' is missing: /api/day?date=YYYY-MM-DD")
        }
        return try await StudioHistory.readDay(document, date: date) { routine, date, store throws(HistoryError) in
            try StudioHistory.day(routine, on: date, store: store)
        }
    }

    @Sendable func correct(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, CorrectionBody.self) { body, loaded throws(StudioError) in
            try makeCorrection(body, loaded, path: absolutePath(document.path))
        }
    }

    @Sendable func undo(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, CorrectionUndoBody.self) { body, loaded throws(StudioError) in
            try undoCorrection(body, loaded)
        }
    }

    /// `POST /api/correct`: one step changed, or a habit nothing recorded added as a log.
    func makeCorrection(_ correction: CorrectionBody, _ loaded: LoadedRoutine, path: String) throws(StudioError) -> [UInt8] {
        try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
            switch correction.target {
            case .habit(let id, let date):
                switch try store.amend(id, of: routine, on: date, to: correction.change, path: path, sourceHash: sourceHash(loaded.file.bytes)) {
                case .failure(let refusal): throw try Self.refused(refusal, routine, on: date, store)
                case .success(let outcome): return try Self.done(outcome, "correction", routine, store)
                }
            case .step(let runID, let number):
                if let answer = correction.answer { return try Self.correctAnswer(answer, step: number, of: runID, routine, store) }
                guard let run = try store.run(id: runID), run.routine == routine.name,
                    let step = run.steps.first(where: { $0.decision.step == number && $0.decision.kind == .habit })
                else { throw Self.stale(.stepNotRecorded(run: runID, step: number)) }
                let date = CalendarDate(run.date) ?? .today()
                // The routine's rules for what a habit takes: an unknown node, a value missing or not expected.
                let rules = DayRules(routine: routine, facts: DayFacts(date: date), unconditional: [])
                let request = LogRequest(
                    id: step.decision.node, skip: correction.result == .skipped, value: correction.value, seconds: correction.seconds, force: true)
                if case .failure(let refusal) = rules.mayLog(request) { throw try Self.refused(refusal, routine, on: date, store) }
                switch try store.amendStep(number, of: runID, to: correction.change) {
                case nil: throw Self.stale(.stepNotRecorded(run: runID, step: number))
                case .failure(let refusal)?: throw try Self.refused(refusal, routine, on: date, store)
                case .success(let outcome)?: return try Self.done(outcome, "correction", routine, store)
                }
            }
        }
    }

    /// A question's recorded answer changed, as `routine amend FILE DATE QUESTION ANSWER` does.
    static func correctAnswer(_ answer: String, step number: Int, of runID: Int64, _ routine: Routine, _ store: HistoryStore) throws
        -> [UInt8]
    {
        guard let run = try store.run(id: runID), run.routine == routine.name,
            let step = run.steps.first(where: { $0.decision.step == number && $0.decision.kind == .question }),
            let question = routine.indexByID()[step.decision.node], routine.isQuestion(question)
        else { throw stale(.stepNotRecorded(run: runID, step: number)) }
        let date = CalendarDate(run.date) ?? .today()
        let option: Int
        switch routine.option(answer, of: question) {
        case .failure(let refusal): throw try refused(refusal, routine, on: date, store)
        case .success(let found): option = found
        }
        switch try store.amendAnswerStep(number, of: runID, in: routine, to: option) {
        case nil: throw stale(.stepNotRecorded(run: runID, step: number))
        case .failure(let refusal)?: throw try refused(refusal, routine, on: date, store)
        case .success(let outcome)?: return try done(outcome, "correction", routine, store)
        }
    }

    /// `POST /api/correct/undo`: the newest correction of the routine taken back, as
    /// `routine amend --undo` does; with `{run, step}`, only when it is that step's.
    func undoCorrection(_ body: CorrectionUndoBody, _ loaded: LoadedRoutine) throws(StudioError) -> [UInt8] {
        try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
            if let outcome = try store.undoAmendment(of: routine.name, expected: body.expected) {
                return try Self.done(outcome, "undone", routine, store)
            }
            if try store.newestAmendment(of: routine.name) == nil { throw StudioError(.unprocessableContent, .nothingToAmend(routine.name)) }
            throw Self.stale(.newerAmendment(routine.name))
        }
    }
}

extension CorrectionsController {
    /// A correction made or undone: the day it changed, and what changed.
    static func done(_ outcome: AmendOutcome, _ name: String, _ routine: Routine, _ store: HistoryStore) throws(HistoryError) -> [UInt8] {
        var about: [(String, JSONValue)] = [
            ("run", .int(Int(outcome.runID))), ("step", .int(outcome.step.decision.step)), ("node", .string(outcome.step.decision.node)),
            ("title", .string(outcome.step.title)), ("at", .string(outcome.amendment.madeAt.description)), ("added", .bool(outcome.amendment.added)),
        ]
        if let before = outcome.amendment.before {
            var was: [(String, JSONValue)] = [("result", .string(before.result.rawValue)), ("value", before.value.map(JSONValue.number) ?? .null)]
            if let option = before.optionText { was.append(("option", .string(option))) }
            about.append(("before", .object(was)))
        }
        return try StudioHistory.day(routine, on: CalendarDate(outcome.date) ?? .today(), store: store, extra: (name, .object(about)))
    }

    /// A refusal of the log rules, with the day as `state`.
    static func refused(_ refusal: LogRefusal, _ routine: Routine, on date: CalendarDate, _ store: HistoryStore) throws -> StudioError {
        StudioError(refusal, state: try StudioHistory.day(routine, on: date, store: store))
    }

    /// What the page showed is not in the history any more: 409.
    static func stale(_ diagnostic: Diagnostic) -> StudioError { StudioError(.conflict, diagnostic) }
}
