import Hummingbird
import RoutineHistory
import RoutineKit
import Synchronization

/// A run in the browser and the runs of a day: GET /api/run, GET /api/run/{id},
/// POST /api/run/start, /api/run/take and /api/run/answer (docs/studio.md, "Run"), and whole
/// runs deleted and put back, POST /api/run/delete and /api/run/restore.
struct RunsController<Context: RequestContext> {
    let document: StudioDocument
    let runs: BrowserRuns
    /// The runs deleted from this studio, kept so that the page can put them back.
    let deleted: DeletedRuns
    var path: String { absolutePath(document.path) }

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get(use: unfinished)
            .get(":id", use: run)
            .post("start", use: start)
            .post("take", use: take)
            .post("answer", use: answer)
            .post("delete", use: delete)
            .post("restore", use: restore)
    }

    /// The day's unfinished run, as a start would offer it.
    @Sendable func unfinished(_ request: Request, context: Context) async throws -> Response {
        let text = request.uri.queryParameters["date"].map(String.init)
        let date = try text.map { text throws(StudioError) in
            guard let day = CalendarDate(text) else { throw .malformed("'\(text)' is not a date (YYYY-MM-DD)") }
            return day
        }
        return Self.json(try await runs.unfinished(await document.loaded(), path: path, date: date ?? .today()))
    }

    @Sendable func run(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw StudioError(.notFound, message: "a run is named by its number") }
        return Self.json(try await runs.get(id, await document.loaded(), path: path))
    }

    @Sendable func start(_ request: Request, context: Context) async throws -> Response {
        let body = try await BodyReader.read(RunStartBody.self, from: request)
        if case .tooFarAhead(let days) = RunDate(body.date, today: .today()) {
            throw StudioError(.unprocessableContent, message: Diagnostic.runDateTooFarAhead(body.date, days: days, today: .today()))
        }
        let answer = try await runs.start(await document.loaded(), path: path, date: body.date, mode: body.mode, holder: body.holder)
        await document.historyChanged()
        return Self.json(answer)
    }

    @Sendable func take(_ request: Request, context: Context) async throws -> Response {
        let body = try await BodyReader.read(RunTakeBody.self, from: request)
        let answer = try await runs.take(body.run, await document.loaded(), path: path)
        await document.historyChanged()
        return Self.json(answer)
    }

    @Sendable func answer(_ request: Request, context: Context) async throws -> Response {
        let body = try await BodyReader.read(RunAnswerBody.self, from: request)
        // The routine is read only for a run that is not going on here: an answer costs no parse.
        guard let answered = try await runs.answer(body.run, holder: body.holder, answer: body.answer, seconds: body.seconds) else {
            try await runs.refuseNotHeld(body.run, await document.loaded())
        }
        await document.historyChanged()
        return Self.json(answered)
    }

    /// A whole run or log taken out, kept here to be put back.
    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, RunDeletionBody.self) { body, loaded throws(StudioError) in
            try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
                let id = body.run
                guard let run = try store.run(id: id), run.routine == routine.name else {
                    throw StudioError(.conflict, .stepNotRecorded(run: id, step: nil))
                }
                if run.endedAt == nil { throw StudioError(.conflict, .runStillGoing(run: id)) }
                guard let deleted = try store.deleteRun(id: id) else { throw StudioError(.conflict, .stepNotRecorded(run: id, step: nil)) }
                self.deleted.keep(deleted)
                let about: JSONValue = .object([
                    ("run", .int(Int(deleted.id))), ("date", .string(run.date)), ("time", .string(run.startedAt.clockTime(offset: run.utcOffset))),
                    ("kind", .string(run.kind.rawValue)), ("steps", .int(run.steps.count)), ("line", HistoryJSON.encode(run)),
                ])
                return try StudioHistory.day(routine, on: CalendarDate(run.date) ?? .today(), store: store, extra: ("deleted", about))
            }
        }
    }

    /// A run deleted from this studio put back as it was.
    @Sendable func restore(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, RunDeletionBody.self) { body, loaded throws(StudioError) in
            try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
                guard let deleted = self.deleted.take(body.run) else { throw StudioError(.conflict, .nothingToRestore(run: body.run)) }
                let run = deleted.run
                let date = CalendarDate(run.date) ?? .today()
                let restored: Result<Int64, RestoreRefusal>
                do { restored = try store.restore(deleted) } catch {
                    // Not put back: the page may try again.
                    self.deleted.keep(deleted)
                    throw error
                }
                switch restored {
                case .failure:
                    let refusal = Diagnostic.runStartTaken(date: run.date, time: run.startedAt.clockTime(offset: run.utcOffset))
                    throw StudioError(.conflict, refusal, state: try StudioHistory.day(routine, on: date, store: store))
                case .success(let back):
                    return try StudioHistory.day(routine, on: date, store: store, extra: ("restored", .object([("run", .int(Int(back)))])))
                }
            }
        }
    }

    static func json(_ run: JSONValue) -> Response {
        var out = ByteWriter()
        run.write(to: &out)
        return StudioResponse.json(out.bytes)
    }
}

/// Runs deleted from this studio, kept for the page to put back.
final class DeletedRuns: Sendable {
    private let runs = Mutex<[Int64: DeletedRun]>([:])
    func keep(_ run: DeletedRun) { runs.withLock { $0[run.id] = run } }
    func take(_ id: Int64) -> DeletedRun? { runs.withLock { $0.removeValue(forKey: id) } }
}
