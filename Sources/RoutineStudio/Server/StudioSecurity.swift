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
/// own Origin on anything that changes state or opens the live channel.
struct StudioSecurity: Sendable {
    let token: String
    let port: Int
    /// The one-time codes `studio --open` hands the browser instead of the token.
    var codes = OneTimeCodes()

    /// The cookie's name holds the port: cookies are not kept apart by port, and two studios
    /// may be open at once.
    var cookieName: String { "routine-studio-\(port)" }

    var allowedHosts: Set<String> { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    enum Verdict: Equatable {
        case allowed
        /// Allowed by the token in the address: the answer sets the cookie.
        case allowedByAddressToken
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

    func check(method: HTTPRequest.Method, host: String?, path: String, query: [(String, String)], headers: HTTPFields) -> Verdict {
        // The first Host becomes the authority and any other stays a header: two are
        // ambiguous, and a proxy in between may have judged the other one (RFC 9112 §3.2).
        if !headers[values: Self.host].isEmpty {
            return .refused(.badRequest, "a request carries exactly one Host header")
        }
        guard let host, allowedHosts.contains(host) else {
            return .refused(.forbidden, "this address is served only as 127.0.0.1, localhost or [::1] with its port")
        }
        let isUpgrade = headers[.upgrade]?.lowercased() == "websocket"
        if method != .get && method != .head || isUpgrade {
            guard let origin = headers[.origin], origin == "http://" + host else {
                return .refused(.forbidden, "a change must come from the studio's own page")
            }
        }
        let allowedKeys = Self.queryKeys[path] ?? []
        if let key = query.first(where: { !allowedKeys.contains($0.0) })?.0 {
            return .refused(.badRequest, "'\(key)' is not a parameter of \(path); the studio serves only the routine it was started on")
        }
        if let bearer = headers[.authorization], bearer.hasPrefix("Bearer "), Self.same(String(bearer.dropFirst(7)), token) {
            return .allowed
        }
        if cookieValue(in: headers[values: .cookie].joined(separator: "; ")).map({ Self.same($0, token) }) == true {
            return .allowed
        }
        if path == "/", method == .get, let given = query.first(where: { $0.0 == "token" })?.1, Self.same(given, token) {
            return .allowedByAddressToken
        }
        if path == "/", method == .get, let given = query.first(where: { $0.0 == "code" })?.1, codes.redeem(given) {
            return .allowedByAddressToken
        }
        return .refused(.unauthorized, "open the address that 'routine studio' printed; it holds the token")
    }

    static let host = HTTPField.Name("Host")!

    func cookieValue(in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == cookieName { return String(pair[1]) }
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
        case .allowed:
            do {
                response = try await next(request, context)
            } catch let error as HTTPError {
                response = StudioResponse.text(error.body ?? "", status: error.status)
            } catch let error as StudioError {
                // Made here, not by the router, so that it carries the headers below.
                response = try error.response(from: request, context: context)
            }
        }
        StudioSecurity.harden(&response.headers)
        return response
    }
}
