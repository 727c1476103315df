import Foundation
import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of a run in the browser: POST /api/run/start, POST /api/run/answer,
    /// POST /api/run/take, GET /api/run/{id} and GET /api/run (docs/studio.md, "Run").
    func addRunRoutes(to router: Router<BasicRequestContext>) {
        let document = self.document
        let runs = self.runs
        let path = absolutePath(document.path)
        router.get("/api/run") { request, _ in
            let date: CalendarDate
            switch RunRequest.date(request.uri.queryParameters["date"].map(String.init)) {
            case .success(let day): date = day
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            return Self.answer(await runs.unfinished(await document.loaded(), path: path, date: date))
        }
        router.get("/api/run/:id") { _, context in
            guard let id = context.parameters.get("id", as: Int64.self) else {
                return Self.answer((.notFound, StudioRuns.refusal(message: "a run is named by its number")))
            }
            return Self.answer(await runs.get(id, await document.loaded(), path: path))
        }
        router.post("/api/run/start") { request, _ in
            let body: RunRequest
            switch RunRequest.parse(try await request.body.collect(upTo: 1 << 16), keys: ["date", "resume", "fresh", "holder"]) {
            case .success(let parsed): body = parsed
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            let date: CalendarDate
            switch body.date {
            case .success(let day): date = day
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            if case .tooFarAhead(let days) = RunDate(date, today: .today()) {
                return Self.answer(
                    (.unprocessableContent, StudioRuns.refusal(message: Diagnostic.runDateTooFarAhead(date, days: days, today: .today()))))
            }
            let mode: StudioRuns.Mode
            switch (body.flag("resume"), body.flag("fresh")) {
            case (.failure(let malformed), _), (_, .failure(let malformed)): return Self.badRequest(malformed)
            case (.success(true), .success(true)): return Self.badRequest(.init(reason: "resume and fresh contradict each other: choose one"))
            case (.success(true), _): mode = .resume
            case (_, .success(true)): mode = .fresh
            default: mode = .ask
            }
            let answer = await runs.start(await document.loaded(), path: path, date: date, mode: mode, holder: body.text("holder"))
            if answer.status == .ok { await document.historyChanged() }
            return Self.answer(answer)
        }
        router.post("/api/run/take") { request, _ in
            let body: RunRequest
            switch RunRequest.parse(try await request.body.collect(upTo: 1 << 16), keys: ["run"]) {
            case .success(let parsed): body = parsed
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            guard case .success(let id) = body.run else { return Self.badRequest(.init(reason: "'run' must be a run's number")) }
            let answer = await runs.take(id, await document.loaded(), path: path)
            if answer.status == .ok { await document.historyChanged() }
            return Self.answer(answer)
        }
        router.post("/api/run/answer") { request, _ in
            let body: RunRequest
            switch RunRequest.parse(try await request.body.collect(upTo: 1 << 16), keys: ["run", "answer", "holder", "seconds"]) {
            case .success(let parsed): body = parsed
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            guard case .success(let id) = body.run else { return Self.badRequest(.init(reason: "'run' must be a run's number")) }
            guard let answer = body.text("answer") else {
                return Self.badRequest(.init(reason: "'answer' must be a string: d, s, b, q, an option, or a number"))
            }
            let seconds: Double?
            switch body.seconds {
            case .success(let measured): seconds = measured
            case .failure(let malformed): return Self.badRequest(malformed)
            }
            // The routine is read only for a run that is not going on here: an answer costs no parse.
            let answered: StudioRuns.Answer
            if let held = await runs.answer(id, holder: body.text("holder"), answer: answer, seconds: seconds) {
                answered = held
            } else {
                answered = await runs.answerNotHeld(id, await document.loaded())
            }
            if answered.status == .ok { await document.historyChanged() }
            return Self.answer(answered)
        }
    }

    static func answer(_ answer: StudioRuns.Answer) -> Response {
        StudioResponse.json(StudioRunJSON.bytes(answer.body), status: answer.status)
    }

    static func badRequest(_ malformed: StudioEditRequest.Malformed) -> Response {
        answer((.badRequest, StudioRuns.refusal(message: malformed.reason)))
    }
}

/// A run request's JSON body, its members checked one by one.
struct RunRequest {
    let fields: StudioEditRequest.Fields

    static func parse(_ buffer: ByteBuffer, keys: Set<String>) -> Result<RunRequest, StudioEditRequest.Malformed> {
        let bytes = Array(buffer: buffer)
        let object: [String: Any]
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            object = [:]
        } else {
            guard let parsed = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
                return .failure(.init(reason: "the body is not a JSON object"))
            }
            object = parsed
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            return .failure(.init(reason: "'\(unknown)' is not a member of this request"))
        }
        return .success(RunRequest(fields: StudioEditRequest.Fields(object: object)))
    }

    var date: Result<CalendarDate, StudioEditRequest.Malformed> {
        Result { () throws(StudioEditRequest.Malformed) in try fields.optionalString("date") }.flatMap(Self.date)
    }

    static func date(_ text: String?) -> Result<CalendarDate, StudioEditRequest.Malformed> {
        guard let text else { return .success(.today()) }
        guard let day = CalendarDate(text) else { return .failure(.init(reason: "'\(text)' is not a date (YYYY-MM-DD)")) }
        return .success(day)
    }

    var run: Result<Int64, StudioEditRequest.Malformed> {
        Result { () throws(StudioEditRequest.Malformed) in Int64(try fields.int("run")) }
    }

    /// What a countdown measured: more than nothing and at most a day, as a log's `seconds`.
    var seconds: Result<Double?, StudioEditRequest.Malformed> {
        Result { () throws(StudioEditRequest.Malformed) in
            let seconds = try fields.optionalNumber("seconds")
            try StudioToday.LogBody.check(value: nil, seconds: seconds)
            return seconds
        }
    }

    func flag(_ key: String) -> Result<Bool, StudioEditRequest.Malformed> {
        Result { () throws(StudioEditRequest.Malformed) in try fields.optionalBool(key) ?? false }
    }

    /// A string member; nil when absent or not a string.
    func text(_ key: String) -> String? { fields.value(key) as? String }
}
