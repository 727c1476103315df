import Dispatch
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The rules that keep everyone but the person who started the studio out: a token (from the
/// address or a one-time code, then a cookie, or a bearer header), exactly one Host of a loopback address, and the page's
/// own Origin on anything that changes state or opens the live channel. Behind the person's
/// own HTTPS (`--allow-host NAME`), a Host of NAME and the Origin `https://` with it, and the
/// credential of a paired phone (its cookie), which may do everything but edit the routine.
struct StudioSecurity: Sendable {
    let token: String
    let port: Int
    /// The one-time codes `studio --open` hands the browser instead of the token.
    var codes = OneTimeCodes()
    /// The names `--allow-host` gave, lowercase: a Host of one (with any port) is let in, and
    /// the Origin it goes with is `https://` and that Host.
    var names: [String] = []
    /// The paired phones; nil lets none in.
    var devices: PairedDevices? = nil

    /// The cookie's name holds the port: cookies are not kept apart by port, and two studios
    /// may be open at once.
    var cookieName: String { "routine-studio-\(port)" }

    /// A phone's credential: `__Host-`, so a browser keeps it only as set here (Secure, the
    /// whole site, no Domain).
    static let phoneCookie = "__Host-routine-phone"

    var allowedHosts: Set<String> { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    /// The paired phone a request under way comes from; nil for the desk.
    @TaskLocal static var phone: String?

    enum Verdict: Equatable {
        case allowed
        /// Allowed by the token in the address: the answer sets the cookie.
        case allowedByAddressToken
        /// The pairing page and its request, which no credential opens.
        case pairing
        /// A paired phone, by its name.
        case phone(String)
        /// A phone whose pairing was ended: it is told so.
        case revoked
        case refused(HTTPResponse.Status, String)
    }

    /// Which query keys each path takes; any other key is refused, so no request can name a file.
    static let queryKeys: [String: Set<String>] = [
        "/": ["token", "code"], "/api/today": ["date"],
        "/api/day": ["date"],
        "/api/run": ["date"],
        "/api/stats": ["since", "until", "question"], "/api/days-off": ["since", "until"],
        "/api/graph-stats": ["since", "until"],
    ]

    /// What anyone may fetch: the pairing page, which holds nothing, its one request, and what
    /// a browser fetches on its own, without the page's credentials (the icons, the manifest),
    /// or before them (the worker).
    static let pairingPaths: Set<String> = [
        "/pair", "/pairing/pair.js", "/pairing/pair.css", "/api/pair/redeem", "/favicon.ico", "/manifest.json", "/sw.js", "/icons/icon-192.png",
        "/icons/icon-512.png", "/icons/maskable-512.png",
    ]

    /// What a phone may not do: edit the routine, or make pairing codes.
    static func deskOnly(method: HTTPRequest.Method, path: String) -> Bool {
        method == .post && (path == "/api/edit" || path == "/api/pair")
    }

    /// Whether `host` (a Host header's value) is a loopback address with the studio's port
    /// (true), a name of ``names`` with any port (false), or neither (nil).
    func isLoopback(_ host: String) -> Bool? {
        if allowedHosts.contains(host) { return true }
        var name = Substring(host)
        if let colon = host.lastIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            name = host[..<colon]
        }
        return names.contains(name.lowercased()) ? false : nil
    }

    func check(
        method: HTTPRequest.Method, host: String?, path: String, query: [(String, String)], headers: HTTPFields, now: Int = Int(time(nil))
    ) -> Verdict {
        // The first Host becomes the authority and any other stays a header: two are
        // ambiguous, and a proxy in between may have judged the other one (RFC 9112 §3.2).
        if !headers[values: Self.host].isEmpty {
            return .refused(.badRequest, "a request carries exactly one Host header")
        }
        guard let host, let loopback = isLoopback(host) else {
            return .refused(
                .forbidden, "this address is served only as 127.0.0.1, localhost or [::1] with its port, or as a name given with --allow-host")
        }
        let isUpgrade = headers[.upgrade]?.lowercased() == "websocket"
        if method != .get && method != .head || isUpgrade {
            // Behind a proxy that terminates HTTPS the page's origin is https, with the Host
            // the browser sent.
            let own = (loopback ? "http://" : "https://") + host.lowercased()
            guard let origin = headers[.origin], origin.lowercased() == own else {
                return .refused(.forbidden, "a change must come from the studio's own page")
            }
        }
        let allowedKeys = Self.queryKeys[path] ?? []
        if let key = query.first(where: { !allowedKeys.contains($0.0) })?.0 {
            return .refused(.badRequest, "'\(key)' is not a parameter of \(path); the studio serves only the routine it was started on")
        }
        let cookies = headers[values: .cookie].joined(separator: "; ")
        if let bearer = headers[.authorization], bearer.hasPrefix("Bearer "), Self.same(String(bearer.dropFirst(7)), token) {
            return .allowed
        }
        if Self.cookie(cookieName, in: cookies).map({ Self.same($0, token) }) == true {
            return .allowed
        }
        if path == "/", method == .get, let given = query.first(where: { $0.0 == "token" })?.1, Self.same(given, token) {
            return .allowedByAddressToken
        }
        if path == "/", method == .get, let given = query.first(where: { $0.0 == "code" })?.1, codes.redeem(given) {
            return .allowedByAddressToken
        }
        if Self.pairingPaths.contains(path) {
            return .pairing
        }
        if let devices, let credential = Self.cookie(Self.phoneCookie, in: cookies) {
            switch devices.lookup(credential: credential, now: now) {
            case .phone(let name):
                return Self.deskOnly(method: method, path: path) ? .refused(.forbidden, PairingMessages.deskOnly) : .phone(name)
            case .revoked: return .revoked
            case .unknown: break
            }
        }
        return .refused(.unauthorized, "open the address that 'routine studio' printed; it holds the token")
    }

    static let host = HTTPField.Name("Host")!

    static func cookie(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }

    var setCookie: String { "\(cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/" }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// The headers every answer carries.
    static func harden(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'self'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-store"
    }
}

/// Codes that each open the studio once, shortly after they are made: the address `studio
/// --open` gives the browser, which every local user can read in its command line. The first
/// load exchanges the code for the cookie and forgets it; by then the address grants nothing.
final class OneTimeCodes: Sendable {
    /// Long enough for a browser to start on a slow machine.
    static let lifetime = Duration.seconds(120)
    private let pending = Mutex<[String: ContinuousClock.Instant]>([:])

    /// A new code, good once within ``lifetime``.
    func issue() -> String {
        let code = StudioServer.randomToken()
        pending.withLock { $0[code] = .now + Self.lifetime }
        return code
    }

    /// Whether `code` is one issued and neither used nor expired; it is forgotten either way.
    func redeem(_ code: String) -> Bool {
        pending.withLock { pending in
            let now = ContinuousClock.now
            pending = pending.filter { $0.value > now }
            // Each stored code compared in full, so the time taken tells nothing about it.
            guard let match = pending.keys.first(where: { StudioSecurity.same($0, code) }) else { return false }
            pending[match] = nil
            return true
        }
    }
}

/// Applies ``StudioSecurity`` to every request, the WebSocket upgrade included.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let security: StudioSecurity

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let query = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        var response: Response
        let host = request.head.authority
        switch security.check(method: request.method, host: host, path: request.uri.path, query: query, headers: request.headers) {
        case .refused(let status, let reason):
            response = StudioResponse.text(reason, status: status)
        case .allowedByAddressToken:
            // The token leaves the address bar at once, so it is not kept in the browser's history.
            response = Response(status: .seeOther, headers: [.location: "/", .setCookie: security.setCookie])
        case .revoked:
            response =
                request.uri.path.hasPrefix("/api/")
                ? StudioResponse.json(StudioError(.forbidden, message: PairingMessages.revoked).body, status: .forbidden)
                : StudioResponse.asset("pairing/revoked.html", status: .forbidden) ?? StudioResponse.text(PairingMessages.revoked, status: .forbidden)
        case .allowed, .pairing:
            response = try await Self.serve(request, context: context, next: next)
        case .phone(let name):
            response = try await StudioSecurity.$phone.withValue(name) { try await Self.serve(request, context: context, next: next) }
        }
        StudioSecurity.harden(&response.headers)
        return response
    }

    private static func serve(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return StudioResponse.text(error.body ?? "", status: error.status)
        } catch let error as StudioError {
            // Made here, not by the router, so that it carries the headers below.
            return try error.response(from: request, context: context)
        }
    }
}
