import Foundation
import Hummingbird
import Testing

@testable import RoutineStudio

/// The rules of `--allow-host` and of pairing a phone, on `StudioSecurity.check` itself, the
/// codes, the paired phones' file, and the hash and QR code they rest on. The browser tests
/// (Tests/browser/test_phone.py) drive the same through Caddy's real HTTPS.
@Suite
struct StudioPairingTests {
    static let token = "00112233445566778899aabbccddeeff"

    struct HostCase: CustomTestStringConvertible, Sendable {
        var name: String
        var method: HTTPRequest.Method = .get
        var host: String?
        var origin: String?
        var verdict: StudioSecurity.Verdict
        var testDescription: String { name }
    }

    static let refusedHost = StudioSecurity.Verdict.refused(
        .forbidden, "this address is served only as 127.0.0.1, localhost or [::1] with its port, or as a name given with --allow-host")
    static let refusedOrigin = StudioSecurity.Verdict.refused(.forbidden, "a change must come from the studio's own page")

    static let hostCases: [HostCase] = [
        HostCase(name: "loopback, as before", host: "127.0.0.1:8080", verdict: .allowed),
        HostCase(name: "the allowed name", host: "phone.example.ts.net", verdict: .allowed),
        HostCase(name: "the allowed name in capitals", host: "Phone.Example.TS.net", verdict: .allowed),
        HostCase(name: "the allowed name, any port", host: "phone.example.ts.net:8443", verdict: .allowed),
        HostCase(name: "the second allowed name", host: "desk.lan", verdict: .allowed),
        HostCase(name: "another name", host: "evil.example", verdict: refusedHost),
        HostCase(name: "a name that ends with the allowed one", host: "xphone.example.ts.net", verdict: refusedHost),
        HostCase(name: "a subdomain of the allowed name", host: "a.phone.example.ts.net", verdict: refusedHost),
        HostCase(name: "an empty port", host: "phone.example.ts.net:", verdict: refusedHost),
        HostCase(name: "a port that is no number", host: "phone.example.ts.net:x1", verdict: refusedHost),
        HostCase(name: "loopback with another port", host: "127.0.0.1:1", verdict: refusedHost),
        HostCase(name: "no Host", host: nil, verdict: refusedHost),
        HostCase(
            name: "a change from the HTTPS origin", method: .post, host: "phone.example.ts.net", origin: "https://phone.example.ts.net",
            verdict: .allowed),
        HostCase(
            name: "a change from the HTTPS origin with the port", method: .post, host: "phone.example.ts.net:8443",
            origin: "https://phone.example.ts.net:8443", verdict: .allowed),
        HostCase(
            name: "a change from plain HTTP of the name", method: .post, host: "phone.example.ts.net", origin: "http://phone.example.ts.net",
            verdict: refusedOrigin),
        HostCase(
            name: "a change from the other allowed name", method: .post, host: "phone.example.ts.net", origin: "https://desk.lan",
            verdict: refusedOrigin),
        HostCase(
            name: "a change from another port of the name", method: .post, host: "phone.example.ts.net:8443",
            origin: "https://phone.example.ts.net", verdict: refusedOrigin),
        HostCase(name: "a change with no Origin", method: .post, host: "phone.example.ts.net", verdict: refusedOrigin),
        HostCase(name: "a change from loopback's page", method: .post, host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", verdict: .allowed),
        HostCase(
            name: "loopback's change from the HTTPS origin", method: .post, host: "127.0.0.1:8080", origin: "https://127.0.0.1:8080",
            verdict: refusedOrigin),
    ]

    @Test(arguments: hostCases)
    func hostAndOrigin(_ c: HostCase) {
        let security = StudioSecurity(token: Self.token, port: 8080, names: ["phone.example.ts.net", "desk.lan"])
        var headers: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        if let origin = c.origin { headers[.origin] = origin }
        #expect(security.check(method: c.method, host: c.host, path: "/api/routine", query: [], headers: headers) == c.verdict)
    }

    @Test func withoutAllowHostEveryNameIsRefused() {
        let security = StudioSecurity(token: Self.token, port: 8080)
        let headers: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        #expect(security.check(method: .get, host: "localhost", path: "/api/routine", query: [], headers: headers) == Self.refusedHost)
        #expect(security.check(method: .get, host: "phone.example.ts.net", path: "/pair", query: [], headers: [:]) == Self.refusedHost)
    }

    // MARK: Codes

    enum Step: Sendable {
        case issue(at: Int)
        /// Redeems the code issued `code` steps back (0: the last), or a wrong one (nil).
        case redeem(code: Int?, at: Int, PairingCodes.Outcome)
    }

    struct CodeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var steps: [Step]
        var testDescription: String { name }
    }

    static let codeCases: [CodeCase] = [
        CodeCase(name: "a code works once", steps: [.issue(at: 0), .redeem(code: 0, at: 1, .accepted), .redeem(code: 0, at: 2, .refused)]),
        CodeCase(name: "a code works until its lifetime ends", steps: [.issue(at: 0), .redeem(code: 0, at: 299, .accepted)]),
        CodeCase(name: "an expired code is refused", steps: [.issue(at: 0), .redeem(code: 0, at: 300, .refused)]),
        CodeCase(name: "a wrong code is refused", steps: [.issue(at: 0), .redeem(code: nil, at: 1, .refused), .redeem(code: 0, at: 2, .accepted)]),
        CodeCase(
            name: "two codes, each once",
            steps: [.issue(at: 0), .issue(at: 1), .redeem(code: 1, at: 2, .accepted), .redeem(code: 0, at: 3, .accepted)]
        ),
        CodeCase(
            name: "after five wrong codes in a minute even the right one is throttled",
            steps: [.issue(at: 0)] + (1...5).map { .redeem(code: nil, at: $0, .refused) } + [
                .redeem(code: nil, at: 6, .throttled), .redeem(code: 0, at: 7, .throttled),
            ]),
        CodeCase(
            name: "the throttle lifts a minute after the first of the five",
            steps: [.issue(at: 0)] + (1...5).map { .redeem(code: nil, at: $0, .refused) } + [
                .redeem(code: 0, at: 60, .throttled), .redeem(code: 0, at: 61, .accepted),
            ]),
        CodeCase(
            name: "four wrong codes leave the right one working",
            steps: [.issue(at: 0)] + (1...4).map { .redeem(code: nil, at: $0, .refused) } + [.redeem(code: 0, at: 5, .accepted)]),
        CodeCase(
            name: "a throttled attempt counts for nothing more",
            steps: [.issue(at: 0)] + (1...5).map { .redeem(code: nil, at: $0, .refused) } + (6...30).map { .redeem(code: nil, at: $0, .throttled) }
                + [.redeem(code: 0, at: 61, .accepted)]),
    ]

    @Test(arguments: codeCases)
    func codes(_ c: CodeCase) {
        let codes = PairingCodes()
        let start = ContinuousClock.now
        var issued: [String] = []
        for (index, step) in c.steps.enumerated() {
            switch step {
            case .issue(let at):
                issued.append(codes.issue(now: start + .seconds(at)))
            case .redeem(let back, let at, let expected):
                let code = back.map { issued[issued.count - 1 - $0] } ?? "ffffffffffffffffffffffffffffffff"
                #expect(codes.redeem(code, now: start + .seconds(at)) == expected, "step \(index)")
            }
        }
    }

    @Test(arguments: [(nil, 300), ("2", 2), ("0", 300), ("x", 300), ("-5", 300)] as [(String?, Int)])
    func lifetime(_ test: String?, _ seconds: Int) {
        #expect(PairingCodes.lifetime(test: test) == .seconds(seconds))
    }

    // MARK: The pairing address

    /// `--allow-host NAME:PORT`: the port phones reach the proxy on goes into the pairing
    /// address, unless it is 443, which a browser leaves out; the name alone lets Hosts in.
    @Test(arguments: [
        ("phone.test", "https://phone.test/pair#"), ("Phone.Test:8443", "https://phone.test:8443/pair#"),
        ("phone.test:443", "https://phone.test/pair#"), ("phone.test:80", "https://phone.test:80/pair#"),
    ])
    func thePairingAddressKeepsTheProxysPort(_ host: String, _ prefix: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "routine \"R\"\n\nhabit a \"A\"\n".write(toFile: folder + "/r.rt", atomically: true, encoding: .utf8)
        let server = try StudioServer(
            path: folder + "/r.rt", token: Self.token, hosts: [host, "desk.lan:9000"], pair: true, devices: folder + "/devices")
        let address = try #require(server.pairingAddress()?.address)
        #expect(address.hasPrefix(prefix), "\(address)")
        #expect(address.count == prefix.count + 32)
        #expect(server.hosts == ["phone.test", "desk.lan"])
        let security = StudioSecurity(token: Self.token, port: 8080, names: server.hosts)
        let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        for allowed in ["phone.test", "phone.test:8443", "phone.test:1234", "desk.lan", "desk.lan:9000"] {
            #expect(security.check(method: .get, host: allowed, path: "/api/routine", query: [], headers: bearer) == .allowed, "\(allowed)")
        }
        #expect(security.check(method: .get, host: "phone.test:8443:1", path: "/api/routine", query: [], headers: bearer) == Self.refusedHost)
    }

    // MARK: Paired phones

    @Test func aPhoneIsPairedLookedUpAndRevokedAcrossInstances() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state/routine/studio-devices"
        let studio = PairedDevices(path: path)
        let credential = try studio.pair(name: "Pixel", now: 1000)
        #expect(studio.lookup(credential: credential, now: 1010) == .phone("Pixel"))
        #expect(studio.lookup(credential: "ffffffffffffffffffffffffffffffff", now: 1010) == .unknown)
        // Only the hash is kept.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(credential))
        #expect(text.contains(SHA256.hex(credential)))
        // A name taken is refused; a second phone gets its own credential.
        #expect(throws: StudioError.self) { try studio.pair(name: "Pixel", now: 1020) }
        let other = try studio.pair(name: "Tablet", now: 1030)
        #expect(other != credential)
        // Seen a minute later, "last seen" is written.
        #expect(studio.lookup(credential: credential, now: 1100) == .phone("Pixel"))
        #expect(PairedDevices(path: path).list().first { $0.name == "Pixel" }?.lastSeen == 1100)
        // `devices --revoke` in another process: the running studio sees it at the next request.
        #expect(try PairedDevices(path: path).revoke("Pixel", now: 1200))
        #expect(studio.lookup(credential: credential, now: 1210) == .revoked("Pixel"))
        #expect(studio.lookup(credential: other, now: 1210) == .phone("Tablet"))
        #expect(try PairedDevices(path: path).revoke("Pixel", now: 1300) == false)
        // The name is free again.
        _ = try studio.pair(name: "Pixel", now: 1400)
    }

    @Test(arguments: [
        ("Pixel", true), ("Ana's phone", true), ("", false), (" Pixel", false), ("Pixel ", false), ("a\tb", false), ("a\nb", false),
        ("a\u{7F}b", false), (String(repeating: "x", count: 40), true), (String(repeating: "x", count: 41), false), ("téléphone", true),
    ])
    func names(_ name: String, _ valid: Bool) {
        #expect(PairedDevices.validName(name) == valid)
    }

    @Test func aPhoneMayNotEditTheRoutineNorMakeCodes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let devices = PairedDevices(path: folder + "/devices")
        let credential = try devices.pair(name: "Pixel", now: 1000)
        let security = StudioSecurity(token: Self.token, port: 8080, names: ["phone.test"], devices: devices)
        let cookie: HTTPFields = [.cookie: "\(StudioSecurity.phoneCookie)=\(credential)", .origin: "https://phone.test"]
        let deskOnly = StudioSecurity.Verdict.refused(.forbidden, PairingMessages.deskOnly)
        let expected: [(HTTPRequest.Method, String, StudioSecurity.Verdict)] = [
            (.get, "/api/today", .phone("Pixel")), (.post, "/api/log", .phone("Pixel")), (.post, "/api/run/start", .phone("Pixel")),
            (.post, "/api/correct", .phone("Pixel")), (.get, "/api/routine", .phone("Pixel")), (.post, "/api/edit", deskOnly),
            (.post, "/api/pair", deskOnly),
        ]
        for (method, path, verdict) in expected {
            #expect(security.check(method: method, host: "phone.test", path: path, query: [], headers: cookie, now: 1000) == verdict, "\(path)")
        }
        // A phone's cookie is no desk token, and the desk's token no phone's cookie.
        let tokenAsPhone: HTTPFields = [.cookie: "\(StudioSecurity.phoneCookie)=\(Self.token)"]
        #expect(
            security.check(method: .get, host: "phone.test", path: "/api/today", query: [], headers: tokenAsPhone)
                == .refused(.unauthorized, "open the address that 'routine studio' printed; it holds the token"))
        // The pairing page and its request need nothing.
        #expect(security.check(method: .get, host: "phone.test", path: "/pair", query: [], headers: [:]) == .pairing)
    }

    // MARK: What it rests on

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256(_ text: String, _ hex: String) {
        #expect(SHA256.hex(text) == hex)
    }

    @Test func theQRCodeIsLibqrencodes() throws {
        // A pairing address is version 4 at level M: 33 modules a side.
        let code = try #require(QRCode("https://phone.example.ts.net/pair#00112233445566778899aabbccddeeff"))
        #expect(code.width == 33)
        // The three finder patterns' corners are dark, the module beside each light.
        #expect(code.isDark(0, 0) && code.isDark(32, 0) && code.isDark(0, 32))
        #expect(!code.isDark(7, 0) && !code.isDark(25, 0))
        #expect(code.terminalText.split(separator: "\n").count == (33 + 2 * QRCode.margin + 1) / 2)
        #expect(code.svgPath.hasPrefix("M4 4h7v1h-7z"))
    }
}
