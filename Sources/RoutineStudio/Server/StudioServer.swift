import Dispatch
import FoundationEssentials
import Hummingbird
import Logging
import RoutineKit
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// `routine studio`: a local web server for one routine file, with the page, its API and the
/// live channel. See docs/studio.md.
public struct StudioServer: Sendable {
    public let path: String
    public let token: String
    let document: StudioDocument
    let runs: BrowserRuns
    let deletedRuns = DeletedRuns()
    let statsCache = StatsCache()
    let codes = OneTimeCodes()
    /// The names `--allow-host` gave, lowercase.
    private(set) var hosts: [String]
    private(set) var pairing: Pairing

    /// A studio for the routine at `path`; `token` defaults to 128 random bits, and one given
    /// must look like one (``tokenRefusal(_:)``). `history` is
    /// the history file the Today view reads and logs to; nil records nothing (`--no-history`).
    /// `hosts` are the names a reverse proxy reaches it by (`--allow-host`), each with the port
    /// phones reach it on when that is not 443 (`NAME:PORT`), for the pairing address; `pair` makes
    /// pairing codes for phones, whose credentials are kept at `devices` (nil: none is let in),
    /// each code good for `pairLifetime`.
    public init(
        path: String, token: String? = nil, history: String? = nil, hosts: [String] = [], pair: Bool = false, devices: String? = nil,
        pairLifetime: Duration = .seconds(300)
    ) throws(Diagnostic) {
        try self.init(path: path, token: token, history: history, writer: StudioDocument.write)
        self.hosts.append(contentsOf: hosts.map { Pairing.split($0.lowercased()).name })
        pairing = Pairing(
            name: hosts.first.map { Pairing.authority($0.lowercased()) }, enabled: pair, codes: PairingCodes(lifetime: pairLifetime),
            devices: self.hosts.isEmpty ? nil : devices.map(PairedDevices.init(path:)))
    }

    init(
        path: String, token: String?, history: String?, writer: @escaping StudioDocument.Writer,
        layoutLimit: Duration = LayoutCache.defaultLimit, drawLimit: Int = StudioLayout.drawLimit
    ) throws(Diagnostic) {
        if let token, let refusal = Self.tokenRefusal(token) { throw refusal }
        hosts = []
        pairing = Pairing(name: nil, enabled: false, codes: PairingCodes(), devices: nil)
        self.path = path
        self.token = token ?? Self.randomToken()
        document = try StudioDocument(path: path, historyPath: history, writer: writer, layoutLimit: layoutLimit, drawLimit: drawLimit)
        runs = BrowserRuns(historyPath: history)
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

    /// A new address that pairs a phone (`https://NAME/pair#CODE`), and its QR code for a
    /// terminal; nil unless the studio was started with `--allow-host NAME --pair`.
    public func pairingAddress() -> (address: String, terminalCode: String?)? {
        pairing.newAddress().map { ($0, QRCode($0)?.terminalText) }
    }

    /// The router for a studio on `port`: the security rules first, then the routes.
    func router(port: Int) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(
            SecurityMiddleware(security: StudioSecurity(token: token, port: port, codes: codes, names: hosts, devices: pairing.devices)))
        addRoutes(to: router)
        return router
    }

    /// The page's routes and each feature's, one controller each.
    func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.addRoutes(PageController().endpoints)
        router.addRoutes(PairingController(pairing: pairing).endpoints)
        router.addRoutes(RoutineController(document: document).endpoints, atPath: "/api")
        router.addRoutes(TodayController(document: document).endpoints, atPath: "/api")
        router.addRoutes(RunsController(document: document, runs: runs, deleted: deletedRuns).endpoints, atPath: "/api/run")
        router.addRoutes(DaysController(document: document, cache: statsCache).endpoints, atPath: "/api")
        router.addRoutes(CorrectionsController(document: document).endpoints, atPath: "/api")
        router.addRoutes(GraphStatsController(document: document).endpoints, atPath: "/api")
        router.addRoutes(LiveController(document: document).endpoints, atPath: "/api")
        router.addRoutes(SyncController(document: document).endpoints, atPath: "/api")
    }

    /// Serves on 127.0.0.1 (and ::1 when it can be bound on the same port) until SIGINT,
    /// SIGTERM or SIGHUP, or until cancelled; `ready` gets the address with the token, and the
    /// port, once the server listens.
    public func run(port: Int = 0, ready: @escaping @Sendable (String) -> Void) async throws {
        try await run(port: port) { address, _ in ready(address) }
    }

    /// With `idle`, `then` is called once no page has been open for `limit` (``StudioIdle``).
    public func run(
        port: Int = 0, idle: (limit: Duration, then: @Sendable () -> Void)? = nil, ready: @escaping @Sendable (String, Int) -> Void
    ) async throws {
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
        // Shut down in the reverse order: the live channels and a layout under way first, as
        // either would hold the servers' graceful shutdown; the watch last.
        let services: [any Service] =
            [DocumentWatch(document: document), SyncWatch(document: document)] + (secondary.map { [$0] } ?? []) + [
                primary, LayoutWorkers(), LiveChannels(document: document),
            ] + (idle.map { [StudioIdle(document: document, limit: $0.limit, ended: $0.then)] } ?? [])
        try await ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint, .sighup], logger: logger).run()
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
