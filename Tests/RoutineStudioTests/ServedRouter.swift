import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// A router served on a loopback port for the length of one test, as the studio serves its
/// own, for the routes mounted without the studio's security rules. Requests go over a real
/// socket (``RawHTTP``), so the tests need no HTTP client of Hummingbird's, whose TLS stack
/// would be built for them alone.
struct ServedRouter {
    let http: RawHTTP

    /// A request with a Host header and nothing else of the page's.
    func send(_ method: String, _ path: String, _ body: String? = nil) async -> RawHTTP.Answer {
        await http.request(method, path, headers: [("Host", "127.0.0.1:\(http.port)")], body: body)
    }

    /// Serves `router` while `body` runs, with `services` (run before the server, shut down
    /// after it).
    static func with<T>(
        _ router: Router<BasicRequestContext>, services: [any Service] = [], _ body: (ServedRouter) async throws -> T
    ) async throws -> T {
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let (ports, ready) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { ready.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let group = ServiceGroup(services: [application] + services, logger: quiet)
        let running = Task { try await group.run() }
        defer { running.cancel() }
        var next = ports.makeAsyncIterator()
        let port = try #require(await next.next())
        try #require(port > 0)
        let result = try await body(ServedRouter(http: RawHTTP(port: port)))
        await group.triggerGracefulShutdown()
        _ = await running.result
        return result
    }
}
