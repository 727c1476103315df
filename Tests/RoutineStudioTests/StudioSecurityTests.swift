import Foundation
import Testing

@testable import RoutineStudio

/// Every refusal of the security model, each against a live server.
@Suite(.serialized)
struct StudioSecurityTests {
    static let routine = "routine \"R\"\n\nhabit a \"A\" -> b\nhabit b \"B\"\n"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var method: String
        var path: String
        /// Headers as (name, value); `HOST`, `ORIGIN` and `TOKEN` stand for the right values.
        var headers: [(String, String)]
        var status: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no token", method: "GET", path: "/api/routine", headers: [("Host", "HOST")], status: 401),
        Case(
            name: "a wrong bearer token", method: "GET", path: "/api/routine", headers: [("Host", "HOST"), ("Authorization", "Bearer nope")],
            status: 401),
        Case(name: "a wrong cookie", method: "GET", path: "/api/routine", headers: [("Host", "HOST"), ("Cookie", "COOKIE=nope")], status: 401),
        Case(name: "a wrong token in the address", method: "GET", path: "/?token=nope", headers: [("Host", "HOST")], status: 401),
        Case(name: "the token in an API address", method: "GET", path: "/api/routine?token=TOKEN", headers: [("Host", "HOST")], status: 400),
        Case(name: "a page without a token", method: "GET", path: "/", headers: [("Host", "HOST")], status: 401),
        Case(
            name: "Host evil.example", method: "GET", path: "/api/routine", headers: [("Host", "evil.example"), ("Authorization", "Bearer TOKEN")],
            status: 403),
        Case(
            name: "Host with another port", method: "GET", path: "/api/routine",
            headers: [("Host", "127.0.0.1:1"), ("Authorization", "Bearer TOKEN")], status: 403),
        Case(name: "no Host", method: "GET", path: "/api/routine", headers: [("Authorization", "Bearer TOKEN")], status: 403),
        Case(
            name: "a foreign Origin on POST", method: "POST", path: "/api/edit",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN"), ("Origin", "http://evil.example")], status: 403),
        Case(
            name: "no Origin on POST", method: "POST", path: "/api/edit", headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 403),
        Case(
            name: "another port's Origin on POST", method: "POST", path: "/api/edit",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN"), ("Origin", "http://127.0.0.1:1")], status: 403),
        Case(
            name: "a path in a query", method: "GET", path: "/api/routine?path=/etc/passwd",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 400),
        Case(name: "a file in a query of the page", method: "GET", path: "/?token=TOKEN&file=/etc/passwd", headers: [("Host", "HOST")], status: 400),
        Case(
            name: "a path in the address", method: "GET", path: "/..%2f..%2fetc%2fpasswd",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 404),
        Case(name: "Today without a token", method: "GET", path: "/api/today", headers: [("Host", "HOST")], status: 401),
        Case(name: "a log without a token", method: "POST", path: "/api/log", headers: [("Host", "HOST"), ("Origin", "http://HOST")], status: 401),
        Case(
            name: "a log from a foreign Origin", method: "POST", path: "/api/log",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN"), ("Origin", "http://evil.example")], status: 403),
        Case(
            name: "a log without an Origin", method: "POST", path: "/api/log", headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")],
            status: 403),
        Case(
            name: "a file in Today's query", method: "GET", path: "/api/today?date=2026-01-01&file=/etc/passwd",
            headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 400),
        Case(
            name: "the right bearer token", method: "GET", path: "/api/routine", headers: [("Host", "HOST"), ("Authorization", "Bearer TOKEN")],
            status: 200),
        Case(
            name: "the right cookie", method: "GET", path: "/api/routine", headers: [("Host", "HOST"), ("Cookie", "x=1; COOKIE=TOKEN")], status: 200),
        Case(
            name: "two Host headers, both right", method: "GET", path: "/api/routine",
            headers: [("Host", "HOST"), ("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 400),
        Case(
            name: "two Host headers, the second foreign", method: "GET", path: "/api/routine",
            headers: [("Host", "HOST"), ("Host", "evil.example"), ("Authorization", "Bearer TOKEN")], status: 400),
        Case(
            name: "two Host headers, the first foreign", method: "GET", path: "/api/routine",
            headers: [("Host", "evil.example"), ("Host", "HOST"), ("Authorization", "Bearer TOKEN")], status: 400),
        Case(name: "a code never issued", method: "GET", path: "/?code=0123456789abcdef0123456789abcdef", headers: [("Host", "HOST")], status: 401),
        Case(
            name: "localhost as Host", method: "GET", path: "/api/routine", headers: [("Host", "localhost:PORT"), ("Authorization", "Bearer TOKEN")],
            status: 200),
    ]

    @Test(arguments: cases)
    func request(_ c: Case) async throws {
        try await StudioFixture.with(Self.routine) { studio in
            func fill(_ text: String) -> String {
                text.replacingOccurrences(of: "HOST", with: studio.host).replacingOccurrences(of: "TOKEN", with: StudioFixture.token)
                    .replacingOccurrences(of: "COOKIE", with: "routine-studio-\(studio.port)").replacingOccurrences(
                        of: "PORT", with: "\(studio.port)")
            }
            let body = c.method == "POST" ? "{\"version\": 1, \"op\": \"delete\", \"id\": \"b\"}" : nil
            let answer = await studio.http.request(c.method, fill(c.path), headers: c.headers.map { ($0.0, fill($0.1)) }, body: body)
            #expect(answer.status == c.status, "\(answer.body)")
            // Every answer, refusals too: no CORS, a strict policy, no sniffing.
            #expect(!answer.headers.contains { $0.0.lowercased().hasPrefix("access-control-") })
            #expect(answer.header("Content-Security-Policy") == "default-src 'self'")
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            // A refused change changed nothing.
            #expect(studio.text == Self.routine || c.status == 200)
        }
    }

    @Test func theFirstVisitSetsAStrictCookie() async throws {
        try await StudioFixture.with(Self.routine) { studio in
            let answer = await studio.get("/?token=\(StudioFixture.token)", [("Host", studio.host)])
            #expect(answer.status == 303)
            #expect(answer.header("Location") == "/")
            let cookie = try #require(answer.header("Set-Cookie"))
            #expect(cookie == "routine-studio-\(studio.port)=\(StudioFixture.token); HttpOnly; SameSite=Strict; Path=/")
            let page = await studio.get("/", [("Host", studio.host), ("Cookie", "routine-studio-\(studio.port)=\(StudioFixture.token)")])
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.body.contains("<script type=\"module\" src=\"app.js\"></script>"))
        }
    }

    static let upgrade = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]

    @Test(
        arguments: [("a foreign Origin", "http://evil.example"), ("no Origin", nil), ("another port", "http://localhost:1")] as [(String, String?)])
    func anUpgradeNeedsThePagesOrigin(_ name: String, _ origin: String?) async throws {
        try await StudioFixture.with(Self.routine) { studio in
            var headers = [("Host", studio.host), ("Authorization", "Bearer \(StudioFixture.token)")] + Self.upgrade
            if let origin { headers.append(("Origin", origin)) }
            #expect(await RawEventStream.open(port: studio.port, headers: headers).status == 403)
            let noToken = await RawEventStream.open(port: studio.port, headers: [("Host", studio.host), ("Origin", studio.origin)] + Self.upgrade)
            #expect(noToken.status == 401)
            // From the page itself the live channel opens (as events: nothing is upgraded).
            let allowed = await RawEventStream.open(port: studio.port, headers: studio.pageHeaders + Self.upgrade)
            #expect(allowed.status == 200)
            #expect(allowed.contentType == "text/event-stream")
        }
    }

    @Test func itListensOnlyOnLoopback() async throws {
        try await StudioFixture.with(Self.routine) { studio in
            let ss = Process()
            ss.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            ss.arguments = ["ss", "-ltnH"]
            let pipe = Pipe()
            ss.standardOutput = pipe
            try ss.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            ss.waitUntilExit()
            let locals = output.split(separator: "\n").compactMap { line -> String? in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count >= 4, columns[3].hasSuffix(":\(studio.port)") else { return nil }
                return String(columns[3].dropLast(":\(studio.port)".count))
            }
            #expect(!locals.isEmpty, "\(output)")
            #expect(locals.allSatisfy { $0 == "127.0.0.1" || $0 == "[::1]" }, "\(locals)")
        }
    }
}
