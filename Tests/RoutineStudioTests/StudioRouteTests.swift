import Foundation
import Hummingbird
import Logging
import NIOCore
import RoutineKit
import ServiceLifecycle
import Testing

@testable import RoutineStudio

/// The routes in process, over a loopback socket (``ServedRouter``): the body reader's rules, the
/// error type's status and code, and one route of each controller. The security rules, which
/// need hand-made headers, are tested over a socket (StudioSecurityTests).
@Suite
struct StudioRouteTests {
    /// The reader's rules, the same for every body; `message` nil when the body is read.
    @Test(
        arguments: [
            ("", "'habit' is missing"),
            ("  \n", "'habit' is missing"),
            ("[]", "the body is not a JSON object"),
            ("not JSON", "the body is not a JSON object"),
            (#"{"habit": "a", "colour": 1}"#, "'colour' is not a member of a log"),
            (#"{"habit": 3}"#, "'habit' must be a string"),
            (#"{"habit": "a", "value": "3"}"#, "'value' must be a number"),
            (#"{"habit": "a", "skip": 1}"#, "'skip' must be true or false"),
            (#"{"habit": "a", "value": null, "date": null}"#, nil),
            (#"{"habit": "a", "date": "2026-02-30"}"#, "'2026-02-30' is not a date (YYYY-MM-DD)"),
            (#"{"habit": "a", "value": 1e400}"#, "the body is not a JSON object"),
            (#"{"habit": "a", "undo": null, "force": true}"#, nil),
        ] as [(String, String?)])
    func theBodyReaderHasOneSetOfRules(_ body: String, _ message: String?) throws {
        do {
            let log = try BodyReader.read(LogBody.self, from: Array(body.utf8))
            #expect(message == nil && log.habit == "a" && log.request.value == nil)
        } catch {
            #expect(error.status == .badRequest && error.code == .editRefused)
            #expect(error.message == message)
        }
    }

    /// An op inside `together` is held to the same rules as a body.
    @Test(arguments: [
        (#"{"version": 1, "op": "together", "ops": [{"op": "delete", "id": "a", "colour": 1}]}"#, "'colour' is not a member of an op"),
        (#"{"version": 1, "op": "together", "ops": [{"op": "together", "ops": []}]}"#, "'together' holds ops, not other groups"),
        (#"{"version": 1, "op": "together", "ops": 3}"#, "'ops' must be a list of ops"),
        (#"{"version": 1.5, "op": "undo"}"#, "'version' must be a whole number"),
        (#"{"version": 1, "op": "together", "ops": [3]}"#, "'ops' must be a list of ops"),
        (#"{"version": 1, "op": "together"}"#, "'ops' must be a list of ops"),
        (#"{"version": 1, "op": "move", "id": "a", "x": "1", "y": 2}"#, "'x' and 'y' must be numbers within the drawing"),
        (#"{"version": 1, "op": "setAttributes", "id": "a", "days": [1]}"#, "'days' must be a list of day names"),
    ])
    func anEditsOpsAreReadByTheSameRules(_ body: String, _ message: String) {
        #expect(throws: StudioError.self) { try BodyReader.read(EditBody.self, from: Array(body.utf8)) }
        do { _ = try BodyReader.read(EditBody.self, from: Array(body.utf8)) } catch { #expect(error.message == message) }
    }

    /// The status is the one the refusal was made with, whatever its body; the code is the
    /// catalogue's, and a run's own refusal has none.
    @Test(
        arguments: [
            (
                StudioError(.conflict, .changedMeanwhile("r.rt"), state: Array(#"{"version":2}"#.utf8)), 409,
                Diagnostic.changedMeanwhile("r.rt").code.rawValue
            ),
            (StudioError(.unprocessableContent, .noHistoryForLog()), 422, DiagnosticCode.noHistoryForLog.rawValue),
            (StudioError(.notFound, message: "there is no run 3", run: .object([("run", .int(3))])), 404, nil),
        ] as [(StudioError, Int, String?)])
    func anErrorAnswersWithItsOwnStatusAndCode(_ error: StudioError, _ status: Int, _ code: String?) async throws {
        let router = Router(context: BasicRequestContext.self)
        router.get("/refused") { _, _ -> Response in throw error }
        try await ServedRouter.with(router) { client in
            let response = await client.send("GET", "/refused")
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/json")
            let body = try #require(JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
            let refusal = try #require(body["error"] as? [String: Any])
            #expect(refusal["code"] as? String == code)
            #expect(refusal["message"] as? String == error.message)
            switch error.beside {
            case .state: #expect((body["state"] as? [String: Any])?["version"] as? Int == 2)
            case .run: #expect(body["run"] as? Int == 3)
            case .nothing: #expect(body.count == 1)
            }
        }
    }

    /// One route of each controller, mounted as the studio mounts them.
    @Test(arguments: [
        ("GET", "/", "", 200),
        ("GET", "/api/routine", "", 200),
        ("POST", "/api/play", #"{"answers": ["d"], "colour": 1}"#, 400),
        ("POST", "/api/edit", #"{"version": 1, "op": "setTitle", "id": "a", "title": "B"}"#, 200),
        ("GET", "/api/today?date=2026-11-23", "", 200),
        ("POST", "/api/log", #"{"habit": "a"}"#, 422),
        ("POST", "/api/run/start", "{}", 200),
        ("GET", "/api/run/abc", "", 404),
        ("POST", "/api/run/delete", #"{"run": "one"}"#, 400),
        ("GET", "/api/stats", "", 200),
        ("GET", "/api/day", "", 400),
        ("GET", "/api/graph-stats?since=2026-11-31", "", 400),
    ])
    func eachControllerAnswers(_ method: String, _ path: String, _ body: String, _ status: Int) async throws {
        try await Self.withRoutes { client, _ in
            let response = await client.send(method, path, body.isEmpty ? nil : body)
            #expect(response.status == status, "\(response.body)")
        }
    }

    /// The live channel's first event is the version; the channels end when the studio shuts
    /// down (``LiveChannels``), or its graceful shutdown would wait for them forever.
    @Test func theLiveChannelEndsWithTheStudio() async throws {
        let (server, folder) = try Self.studio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let services = ServiceGroup(
            services: [LiveChannels(document: server.document)], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await ServedRouter.with(Self.router(server)) { client in
            async let running: Void = services.run()
            async let answer = client.send("GET", "/api/live")
            // Bounded: the channel listens as soon as the request is handled.
            for _ in 0..<1000 {
                if await server.document.listenerCount > 0 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(await server.document.listenerCount == 1)
            await services.triggerGracefulShutdown()
            try await running
            #expect(await answer.body == "retry: 500\n\ndata: {\"version\":1}\n\n")
        }
    }

    /// A studio on a routine with one habit, in a folder of its own.
    static func studio() throws -> (StudioServer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\n\nhabit a \"A\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        return (try StudioServer(path: path, token: StudioFixture.token, history: nil), folder)
    }

    /// The studio's routes mounted on a router without the security rules.
    static func router(_ server: StudioServer) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        server.addRoutes(to: router)
        return router
    }

    static func withRoutes(_ body: (ServedRouter, StudioServer) async throws -> Void) async throws {
        let (server, folder) = try studio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServedRouter.with(router(server)) { client in try await body(client, server) }
    }
}
