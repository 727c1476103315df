import Hummingbird
import RoutineKit

/// The routine and its edits: GET /api/routine, POST /api/edit and POST /api/play (docs/studio.md).
struct RoutineController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("routine", use: routine)
            .post("edit", use: edit)
            .post("play", use: play)
    }

    @Sendable func routine(_ request: Request, context: Context) async throws -> Response {
        let (payload, phases) = await document.timedPayload()
        return StudioResponse.json(payload, phases: phases)
    }

    @Sendable func edit(_ request: Request, context: Context) async throws -> Response {
        let edit = try await BodyReader.read(EditBody.self, from: request, limit: 1 << 20)
        switch await document.edit(edit) {
        case .done(let payload, let phases): return StudioResponse.json(payload, phases: phases)
        case .conflict(let payload): throw StudioError(.conflict, .changedMeanwhile(document.path), state: payload)
        case .refused(let diagnostic): throw StudioError(.unprocessableContent, diagnostic)
        }
    }

    @Sendable func play(_ request: Request, context: Context) async throws -> Response {
        let body = try await BodyReader.read(RoutinePlay.Body.self, from: request, limit: 1 << 20)
        return StudioResponse.json(try RoutinePlay.play(await document.loaded(), answers: body.answers, date: body.date ?? .today(), from: body.from))
    }
}
