import Foundation
import Testing

@testable import RoutineStudio

/// A studio serving a routine in a temporary folder, for one test.
struct StudioFixture {
    static let token = "0123456789abcdef0123456789abcdef"
    let port: Int
    let path: String
    let http: RawHTTP
    /// The studio's history file (in the test's folder), or nil for `--no-history`.
    var historyPath: String? = nil

    var host: String { "127.0.0.1:\(port)" }
    var origin: String { "http://127.0.0.1:\(port)" }
    /// What the page's own requests carry.
    var pageHeaders: [(String, String)] {
        [("Host", host), ("Authorization", "Bearer \(Self.token)"), ("Origin", origin)]
    }

    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func get(_ path: String, _ headers: [(String, String)]? = nil) async -> RawHTTP.Answer {
        await http.request("GET", path, headers: headers ?? pageHeaders)
    }

    func post(_ body: String, _ headers: [(String, String)]? = nil) async -> RawHTTP.Answer {
        await http.request("POST", "/api/edit", headers: headers ?? pageHeaders, body: body)
    }

    /// A request with the page's headers to any path.
    func send(_ method: String, _ path: String, _ body: String? = nil) async -> RawHTTP.Answer {
        await http.request(method, path, headers: pageHeaders, body: body)
    }

    func state() async throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(await get("/api/routine").body.utf8)) as? [String: Any])
    }

    func version() async -> Int { ((try? await state())?["version"] as? Int) ?? -1 }

    /// Runs `body` with a studio on `text`; the server stops afterwards. `before` is given the
    /// routine's and the history's paths before the studio starts: a history it writes is not
    /// watched being written.
    static func with(
        _ text: String, name: String = "test.rt", history: Bool = false, writer: StudioDocument.Writer? = nil,
        layoutLimit: Duration = LayoutCache.defaultLimit, drawLimit: Int = StudioLayout.drawLimit,
        before: (_ path: String, _ history: String?) throws -> Void = { _, _ in },
        _ body: (StudioFixture) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let historyPath = history ? folder.appendingPathComponent("history.sqlite").path : nil
        try before(path, historyPath)
        let server = try StudioServer(
            path: path, token: token, history: historyPath, writer: writer ?? StudioDocument.write, layoutLimit: layoutLimit,
            drawLimit: drawLimit)
        let (addresses, continuation) = AsyncStream.makeStream(of: String.self)
        let task = Task { try await server.run { continuation.yield($0) } }
        defer { task.cancel() }
        var iterator = addresses.makeAsyncIterator()
        let address = try #require(await iterator.next())
        let port = try #require(Int(address.split(separator: ":")[2].split(separator: "/")[0]))
        #expect(address == "http://127.0.0.1:\(port)/?token=\(token)")
        try await body(StudioFixture(port: port, path: path, http: RawHTTP(port: port), historyPath: historyPath))
        task.cancel()
        _ = await task.result
    }
}
