import Foundation
import RoutineHistory
import RoutineKit
import Testing

@testable import RoutineStudio

/// Texts of a routine that look like HTML (titles, notes, prompts, answers, the routine's
/// name; IDs cannot hold them) reach every endpoint's answer as JSON strings, exactly, in
/// answers the browser may only read as JSON.
@Suite(.serialized)
struct StudioCorrectionInjectionTests {
    static let script = "<script>alert(\"x\")</script>"
    static let image = "<img src=x onerror=\"alert('y')\">"
    static let quotes = "He said \"hi\" & 'bye' </div><!--"
    static let backslash = #"C:\temp\"quoted\" \u003c"#

    static var routine: String {
        """
        routine "\(escaped(script))"
        habit xss "\(escaped(script))" -> img
          note "\(escaped(image))"
        habit img "\(escaped(image))" -> mood
        question mood "\(escaped(quotes))"
          "\(escaped(script))" -> quotes
          "\(escaped(image))" -> quotes
        habit quotes "\(escaped(quotes))"
          note "\(escaped(backslash))"

        """
    }

    /// A text as a string of the .rt language writes it.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Every string in a JSON answer, however deep; the answer must parse as JSON.
    static func strings(_ answer: RawHTTP.Answer) throws -> Set<String> {
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("X-Content-Type-Options") == "nosniff")
        let value = try JSONSerialization.jsonObject(with: Data(answer.body.utf8), options: [.fragmentsAllowed])
        var found: Set<String> = []
        var pending: [Any] = [value]
        while let next = pending.popLast() {
            if let text = next as? String { found.insert(text) }
            if let list = next as? [Any] { pending += list }
            if let object = next as? [String: Any] { pending += Array(object.values) }
        }
        return found
    }

    func expectCarried(_ answer: RawHTTP.Answer, _ texts: [String], _ what: String) throws {
        let found = try Self.strings(answer)
        for text in texts { #expect(found.contains(text), "\(what) lost \(text): \(answer.body)") }
    }

    @Test func everyEndpointCarriesTheTextsAsJSONStrings() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let state = await studio.get("/api/routine")
            #expect(state.status == 200)
            try expectCarried(state, [Self.script, Self.image, Self.quotes, Self.backslash], "GET /api/routine")
            try expectCarried(await studio.get("/api/today?date=2026-11-23"), [Self.script, Self.image, Self.quotes], "GET /api/today")
            try expectCarried(
                await studio.send("POST", "/api/log", #"{"habit": "xss", "date": "2026-11-23"}"#), [Self.script], "POST /api/log")
            let play = await studio.send("POST", "/api/play", #"{"answers": ["d", "d"]}"#)
            try expectCarried(play, [Self.script, Self.image, Self.quotes], "POST /api/play")
            let day = await studio.get("/api/day?date=2026-11-23")
            try expectCarried(day, [Self.script], "GET /api/day")
            let run = try #require(((try StudioTodayTests.object(day))["runs"] as? [[String: Any]])?.first?["id"] as? Int)
            try expectCarried(
                await studio.send("POST", "/api/correct", #"{"run": \#(run), "step": 1, "result": "skipped"}"#), [Self.script], "POST /api/correct")
            try expectCarried(await studio.send("POST", "/api/correct/undo", "{}"), [Self.script], "POST /api/correct/undo")
            try expectCarried(
                await studio.send("POST", "/api/correct", #"{"date": "2026-11-23", "habit": "quotes", "result": "done"}"#), [Self.quotes],
                "POST /api/correct (added)")
            try expectCarried(await studio.send("POST", "/api/run/delete", #"{"run": \#(run)}"#), [Self.script], "POST /api/run/delete")
            try expectCarried(await studio.send("POST", "/api/run/restore", #"{"run": \#(run)}"#), [Self.script], "POST /api/run/restore")
            // Refusals that name what they refuse: the name comes back as a JSON string too.
            let unknown = await studio.send("POST", "/api/log", #"{"habit": "<img src=x onerror=alert(1)>"}"#)
            #expect(unknown.status == 422)
            #expect(try Self.strings(unknown).contains { $0.contains("<img src=x onerror=alert(1)>") })
            let refused = await studio.send("POST", "/api/log", #"{"habit": "xss", "date": "2026-11-23"}"#)
            #expect(refused.status == 409)
            #expect(try Self.strings(refused).contains { $0.contains(Self.script) })
            let bad = await studio.get("/api/day?date=%3Cscript%3E")
            #expect(bad.status == 400)
            #expect(try Self.strings(bad).contains { $0.contains("<script>") })
            // An edit that writes such a title: the state answers it back as it was given.
            let version = await studio.version()
            let title = Self.image + Self.quotes
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["version": version, "op": "setTitle", "id": "img", "title": title]),
                as: UTF8.self)
            let edited = await studio.post(body)
            #expect(edited.status == 200, "\(edited.body)")
            try expectCarried(edited, [title], "POST /api/edit")
            #expect(studio.text.contains("habit img \"" + Self.escaped(title) + "\""))
        }
    }
}
