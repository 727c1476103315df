import Foundation
import Hummingbird
import Logging
import NIOCore
import RoutineHistory
import RoutineKit

/// `routine studio`: a local web server for one routine file, with the page, its API and the
/// live channel. See docs/studio.md.
public struct StudioServer: Sendable {
    public let path: String
    public let token: String
    let document: StudioDocument
    let today: StudioToday
    let runs: StudioRuns
    let codes = OneTimeCodes()

    /// A studio for the routine at `path`; `token` defaults to 128 random bits, and one given
    /// must look like one (``tokenRefusal(_:)``). `history` is
    /// the history file the Today view reads and logs to; nil records nothing (`--no-history`).
    public init(path: String, token: String? = nil, history: String? = nil) throws(Diagnostic) {
        try self.init(path: path, token: token, history: history, writer: StudioDocument.write)
    }

    init(
        path: String, token: String?, history: String?, writer: @escaping StudioDocument.Writer,
        layoutLimit: Duration = LayoutCache.defaultLimit
    ) throws(Diagnostic) {
        if let token, let refusal = Self.tokenRefusal(token) { throw refusal }
        self.path = path
        self.token = token ?? Self.randomToken()
        document = try StudioDocument(path: path, historyPath: history, writer: writer, layoutLimit: layoutLimit)
        today = StudioToday(historyPath: history)
        runs = StudioRuns(historyPath: history)
    }

    /// 128 bits from the system's generator, as 32 hex digits.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }

    /// Why `token` cannot be a studio's token: it must be as hard to guess as the studio's own,
    /// and safe as it is in an address and a cookie (lowercase hex digits, at least 32).
    public static func tokenRefusal(_ token: String) -> Diagnostic? {
        let hex = token.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
        return hex && token.utf8.count >= minimumTokenLength ? nil : .studioTokenRefused(minimum: minimumTokenLength)
    }

    /// The length of the studio's own tokens.
    public static let minimumTokenLength = 32

    /// An address that opens the studio on `port` once, within a short time, with no token in
    /// it: for the browser, whose command line every local user can read.
    public func oneTimeAddress(port: Int) -> String { "http://127.0.0.1:\(port)/?code=\(codes.issue())" }

    /// The router for a studio on `port`: the security rules first, then the page and the API.
    func router(port: Int) -> Router<BasicRequestContext> {
        let security = StudioSecurity(token: token, port: port, codes: codes)
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(SecurityMiddleware(security: security))
        let document = self.document
        router.get("/") { _, _ in StudioResponse.asset("index.html") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/:asset") { request, _ in
            StudioResponse.asset(String(request.uri.path.dropFirst())) ?? StudioResponse.text("not found", status: .notFound)
        }
        router.get("/api/routine") { _, _ in
            let (state, phases) = await document.timedState()
            return StudioResponse.json(state, phases: phases)
        }
        router.post("/api/edit") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            let edit: StudioEditRequest
            switch StudioEditRequest.parse(Array(buffer: body)) {
            case .success(let parsed): edit = parsed
            case .failure(let malformed):
                return StudioResponse.json(StudioState.refusal(Diagnostic(.editRefused, malformed.reason, at: nil), state: nil), status: .badRequest)
            }
            switch await document.edit(edit) {
            case .done(let state, let phases): return StudioResponse.json(state, phases: phases)
            case .conflict(let state):
                return StudioResponse.json(StudioState.refusal(.changedMeanwhile(document.path), state: state), status: .conflict)
            case .refused(let diagnostic):
                return StudioResponse.json(StudioState.refusal(diagnostic, state: nil), status: .unprocessableContent)
            }
        }
        router.post("/api/play") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let play = StudioPlay.request(from: Array(buffer: body)) else {
                return StudioResponse.json(
                    StudioState.refusal(
                        Diagnostic(.editRefused, "the body must be {\"answers\": [...], \"date\": \"YYYY-MM-DD\"?}", at: nil), state: nil),
                    status: .badRequest)
            }
            let loaded = await document.loaded()
            let result = StudioPlay.play(loaded, answers: play.answers, date: play.date)
            return StudioResponse.json(result, status: result.starts(with: Array("{\"error\"".utf8)) ? .unprocessableContent : .ok)
        }
        let today = self.today
        router.get("/api/today") { request, _ in
            let answer = today.day(await document.loaded(), date: request.uri.queryParameters["date"].map(String.init))
            return StudioResponse.json(answer.body, status: answer.status)
        }
        router.post("/api/log") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            let answer = today.log(await document.loaded(), path: absolutePath(document.path), body: Array(buffer: body))
            await document.reloadHistoryIfChanged()
            return StudioResponse.json(answer.body, status: answer.status)
        }
        addRunRoutes(to: router)
        addDaysRoutes(to: router)
        addCorrectionRoutes(to: router)
        addGraphStatsRoutes(to: router)
        router.get("/api/live") { _, _ in
            // Server-sent events: a plain GET under the same rules as every other request.
            let events = await document.listen()
            let first = await document.version
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 500\n\ndata: \(LiveEvent.version(first).json)\n\n"))
                    for await event in events {
                        try await writer.write(ByteBuffer(string: "data: \(event.json)\n\n"))
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    /// Serves on 127.0.0.1 (and ::1 when it can be bound on the same port) until SIGINT or
    /// SIGTERM; `ready` gets the address with the token, and the port, once the server listens.
    public func run(port: Int = 0, ready: @escaping @Sendable (String) -> Void) async throws {
        try await run(port: port) { address, _ in ready(address) }
    }

    public func run(port: Int = 0, ready: @escaping @Sendable (String, Int) -> Void) async throws {
        let chosen = port == 0 ? try Self.freePort() : port
        var logger = Logger(label: "routine-studio")
        // Hummingbird logs a listener it closes at shutdown as an error ("Already closed"):
        // noise on every Ctrl-C. What the studio must say, it says on its own.
        logger.logLevel = .critical
        let router = router(port: chosen)
        let address = "http://127.0.0.1:\(chosen)/?token=\(token)"
        let primary = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: chosen), serverName: nil),
            onServerRunning: { _ in ready(address, chosen) }, logger: logger)
        let secondary =
            Self.canBind(ipv6Loopback: chosen)
            ? Application(
                router: router, configuration: .init(address: .hostname("::1", port: chosen), serverName: nil), logger: logger)
            : nil
        let document = self.document
        // Open live channels would hold a graceful shutdown forever: they end first, and so
        // does a layout under way, which would hold the document for up to its time limit.
        let signals = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "routine-studio.signal"))
            source.setEventHandler {
                GraphvizWorker.endAll()
                Task { await document.closeListeners() }
            }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await document.watch() }
            if let secondary { group.addTask { try await secondary.run() } }
            // The primary server handles SIGINT and SIGTERM; when it has shut down, so does the rest.
            try await primary.runService()
            group.cancelAll()
        }
    }
}

extension StudioServer {
    /// A port that 127.0.0.1 has free now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPError(.internalServerError, message: "no socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HTTPError(.internalServerError, message: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether [::1]:`port` can be bound: there is an IPv6 loopback, and the port is free on it.
    static func canBind(ipv6Loopback port: Int) -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        address.sin6_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
