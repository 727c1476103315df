import Foundation
import Testing

@testable import RoutineStudio

#if canImport(Glibc)
import Glibc
#endif

/// The studio answers whatever the routine's path holds and however large the routine is:
/// a named pipe or a device is named, not read; a drawing past its time limit is given up
/// while the other views answer; a signal ends the studio and its `dot`; runs left behind
/// do not keep the history open.
@Suite(.serialized)
struct StudioResponsivenessTests {
    /// A chain of `count` habits with a question every tenth node: a routine `dot` takes long over.
    static func large(_ count: Int) -> String {
        var text = "routine \"Large\"\n"
        for k in 0..<count {
            let next = k + 1 == count ? "end" : "n\(k + 1)"
            text += k % 10 == 9 ? "question n\(k) \"Q\(k)\"\n  \"yes\" -> \(next)\n  \"no\" -> \(next)\n" : "habit n\(k) \"Habit \(k)\" -> \(next)\n"
        }
        return text
    }

    static func diagnostics(_ state: [String: Any]) -> [String] {
        ((state["diagnostics"] as? [[String: Any]]) ?? []).map { "\($0["code"] ?? "") \($0["message"] ?? "")" }
    }

    /// Waits (boundedly) until the state satisfies `done`.
    static func state(of studio: StudioFixture, where done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var state = try await studio.state()
        for _ in 0..<200 where !done(state) {
            try await Task.sleep(for: .milliseconds(25))
            state = try await studio.state()
        }
        return state
    }

    @Test(arguments: ["pipe", "device"])
    func aPathThatIsNoRegularFileIsNamedAndARealFileIsReadAgain(kind: String) async throws {
        try await StudioFixture.with("routine \"R\"\nhabit a \"A\"\n") { studio in
            unlink(studio.path)
            if kind == "pipe" { #expect(mkfifo(studio.path, 0o600) == 0) } else { #expect(symlink("/dev/zero", studio.path) == 0) }
            let what = kind == "pipe" ? "a named pipe" : "a character device"
            let refused = try await Self.state(of: studio) { Self.diagnostics($0).contains { $0.contains("E013") } }
            #expect(
                Self.diagnostics(refused).first == "E013 '\(studio.path)' is \(what), not a regular file; the studio waits for a routine file there")
            // An edit is refused, and the pipe or device is left as it is.
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"a\", \"title\": \"B\"}")
            #expect(edit.status != 200)
            // A routine file saved in its place is read.
            let saved = studio.path + ".new"
            try "routine \"R\"\nhabit a \"Back\"\n".write(toFile: saved, atomically: false, encoding: .utf8)
            #expect(rename(saved, studio.path) == 0)
            let back = try await Self.state(of: studio) { ($0["source"] as? String)?.contains("Back") == true }
            #expect((back["source"] as? String)?.contains("Back") == true)
            #expect(!Self.diagnostics(back).contains { $0.contains("E013") })
        }
    }

    @Test func aDrawingPastItsLimitIsGivenUpAndTheRoutineStillShows() async throws {
        try await StudioFixture.with(Self.large(400), layoutLimit: .milliseconds(1)) { studio in
            let state = try await studio.state()
            #expect((state["layoutError"] as? String) == "'Large' is too large to draw within 1 s: it is shown without its drawing")
            #expect((state["name"] as? String) == "Large")
            // Not tried again at every look, and edits still work.
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"n0\", \"title\": \"First\"}")
            #expect(edit.status == 200)
            #expect(await studio.get("/api/today").status == 200)
        }
    }

    /// A routine of more cards than the studio draws is not given to Graphviz: it opens with its
    /// problems and, for the outline, where each card leads; edits still work.
    @Test func aRoutineTooLargeToDrawOpensWithItsOutline() async throws {
        let cards = StudioLayout.drawLimit * 10
        try await StudioFixture.with(Self.large(cards) + "habit lost \"Lost\"\n") { studio in
            let state = try await studio.state()
            #expect(
                (state["layoutError"] as? String)
                    == "'Large' has \(cards + 1) cards, more than the studio draws (\(StudioLayout.drawLimit)): the outline lists them")
            let edges = state["edges"] as? [[String: Any]] ?? []
            #expect(edges.count >= cards)
            #expect(edges.allSatisfy { ($0["points"] as? [Any])?.isEmpty == true })
            #expect(edges.contains { $0["from"] as? String == "n0" && $0["to"] as? String == "n1" })
            #expect(Self.diagnostics(state).contains { $0.hasPrefix("W001") && $0.contains("'lost'") })
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"n0\", \"title\": \"First\"}")
            #expect(edit.status == 200)
        }
    }

    @Test func todayAndRunsAnswerWhileALayoutRuns() async throws {
        // Drawn for seconds, or given up after 8 s.
        // Graphviz is asked to draw more cards than the studio would, to keep it busy for seconds.
        try await StudioFixture.with(Self.large(6000), history: true, layoutLimit: .seconds(8), drawLimit: 10_000) { studio in
            let drawn = SharedCounter()
            let drawing = Task {
                let answer = await studio.get("/api/routine")
                _ = drawn.next()
                return answer
            }
            // The drawing has begun before these; each answers without waiting for it.
            try await Task.sleep(for: .milliseconds(200))
            let today = await studio.get("/api/today")
            let run = await studio.send("POST", "/api/run/start", #"{"fresh": true}"#)
            #expect(drawn.value == 0, "the other views waited for the drawing")
            #expect(today.status == 200)
            #expect(run.status == 200, "\(run.body)")
            #expect(await drawing.value.status == 200)
        }
    }
}
