import Hummingbird
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

extension StudioServer {
    /// How long a pairing code works: 5 minutes, or what `ROUTINE_TEST_STUDIO_PAIR_SECONDS`
    /// (`test`, that variable's value) says, which only the tests set.
    public static func pairLifetime(test: String?) -> Duration { PairingCodes.lifetime(test: test) }
}

/// What pairing needs: the name phones reach the studio by (the first `--allow-host`, with
/// its port when that is not 443), the codes and the paired phones. Codes are made only with
/// `--pair`.
struct Pairing: Sendable {
    /// `NAME` or `NAME:PORT`, as the pairing address holds it.
    let name: String?
    let enabled: Bool
    let codes: PairingCodes
    let devices: PairedDevices?

    /// A new pairing address, `https://NAME/pair#CODE`: the code in the fragment, which the
    /// browser never sends, so no proxy's log holds it. Nil unless pairing is on.
    func newAddress() -> String? {
        guard enabled, let name, devices != nil else { return nil }
        return "https://\(name)/pair#\(codes.issue())"
    }

    /// `--allow-host`'s value, `NAME` or `NAME:PORT`, as its name and port. The name alone
    /// decides which Hosts are let in (with any port); the port is where a phone reaches the
    /// proxy, and goes into the pairing address.
    static func split(_ host: String) -> (name: String, port: Int?) {
        guard let colon = host.lastIndex(of: ":"), let port = Int(host[host.index(after: colon)...]) else { return (host, nil) }
        return (String(host[..<colon]), port)
    }

    /// The authority of the pairing address for `--allow-host`'s value: the name, and the
    /// port unless it is HTTPS's own, which a browser leaves out.
    static func authority(_ host: String) -> String {
        let (name, port) = split(host)
        guard let port, port != 443 else { return name }
        return "\(name):\(port)"
    }
}

/// Pairing a phone (docs/phone.md): GET /pair, the page a phone opens from the code; GET
/// /api/pair, whether this page may pair one and whether it is a phone's; POST /api/pair, a
/// new pairing address and its QR code, for the desk only; POST /api/pair/redeem, a code and
/// a name exchanged for the phone's own credential, as a cookie.
struct PairingController<Context: RequestContext> {
    let pairing: Pairing

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("pair") { _, _ in StudioResponse.asset("pairing/pair.html") ?? StudioResponse.text("not found", status: .notFound) }
            .get("api/pair", use: status)
            .post("api/pair", use: newCode)
            .post("api/pair/redeem", use: redeem)
    }

    /// Whether this page may pair a phone (`enabled`), and whether it is itself a paired
    /// phone's (`phone`), whose page then hides the builder and the desk's path.
    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        let phone = StudioSecurity.phone != nil
        return StudioResponse.json(Self.json([("enabled", .bool(pairing.enabled && !phone)), ("phone", .bool(phone))]))
    }

    @Sendable func newCode(_ request: Request, context: Context) async throws -> Response {
        _ = try await BodyReader.read(NoBody.self, from: request)
        guard let address = pairing.newAddress() else { throw StudioError(.conflict, message: PairingMessages.notPairing) }
        var members: [(String, JSONValue)] = [("address", .string(address))]
        if let code = QRCode(address) {
            members.append(("qr", .object([("size", .int(code.width + 2 * QRCode.margin)), ("path", .string(code.svgPath))])))
        }
        return StudioResponse.json(Self.json(members))
    }

    @Sendable func redeem(_ request: Request, context: Context) async throws -> Response {
        let body = try await BodyReader.read(RedeemBody.self, from: request)
        guard let devices = pairing.devices else { throw StudioError(.conflict, message: PairingMessages.notPairing) }
        guard PairedDevices.validName(body.name) else { throw StudioError(.badRequest, message: PairingMessages.badName) }
        // Before the code is spent: a name already taken leaves the code for a second try.
        if devices.isTaken(body.name) { throw StudioError(.conflict, message: PairingMessages.nameTaken(body.name)) }
        switch pairing.codes.redeem(body.code) {
        case .throttled: throw StudioError(.tooManyRequests, message: PairingMessages.throttled)
        case .refused: throw StudioError(.forbidden, message: PairingMessages.wrongCode)
        case .accepted: break
        }
        let credential = try devices.pair(name: body.name, now: Int(time(nil)))
        var response = StudioResponse.json(Self.json([("name", .string(body.name))]))
        // 400 days, the most a browser keeps a cookie; the studio ends it with --revoke.
        response.headers[.setCookie] =
            "\(StudioSecurity.phoneCookie)=\(credential); HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=34560000"
        return response
    }
}

/// POST /api/pair/redeem: `{"code": …, "name": …}`.
extension PairingController {
    static func json(_ members: [(String, JSONValue)]) -> [UInt8] {
        var out = ByteWriter()
        JSONValue.object(members).write(to: &out)
        return out.bytes
    }
}

struct RedeemBody: RequestBody {
    let code: String
    let name: String
    static let members: Set<String> = ["code", "name"]
    static let name = "a pairing"

    init(_ members: BodyMembers) throws(StudioError) {
        code = try members.string("code")
        name = try members.string("name")
    }
}

/// A body that must be empty (or `{}`).
struct NoBody: RequestBody {
    static let members: Set<String> = []
    static let name = "this request"
    init(_ members: BodyMembers) throws(StudioError) {}
}
