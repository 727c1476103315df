import Foundation
import Testing

@testable import RoutineStudio

/// The API against a live server: the state's shape, edits, 409, 422, undo and redo, and the
/// live channel.
@Suite(.serialized)
struct StudioAPITests {
    static let morning = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../routines/morning.rt"),
        encoding: .utf8)

    @Test func theStateHasACardAndABoxForEveryNode() async throws {
        try await StudioFixture.with(Self.morning, name: "morning.rt") { studio in
            let state = try await studio.state()
            let nodes = try #require(state["nodes"] as? [[String: Any]])
            #expect(
                nodes.map { $0["id"] as? String } == ["water", "stretch", "mood", "run", "meditate", "walk", "journal", "shower", "plan", "water2"])
            for node in nodes {
                #expect((node["width"] as? Double ?? 0) > 0 && (node["height"] as? Double ?? 0) > 0, "\(node)")
            }
            let mood = try #require(nodes.first { $0["id"] as? String == "mood" })
            #expect((mood["options"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Great!", "Okay", "Not so good", "Skip today", "Tired"])
            let edges = try #require(state["edges"] as? [[String: Any]])
            let great = edges.filter { $0["from"] as? String == "mood" && $0["option"] as? Int == 0 }.map { $0["to"] as? String }
            #expect(great == ["run", "meditate"])
            #expect(edges.allSatisfy { ($0["points"] as? [[Double]])?.count ?? 0 >= 4 })
            #expect(state["source"] as? String == Self.morning)
            #expect((state["diagnostics"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func anEditWritesTheFileAndUndoRedoRestoreIt() async throws {
        let text = "routine \"R\"   # mine\n\nhabit a \"A\"\nhabit b \"B\"\n"
        try await StudioFixture.with(text) { studio in
            let v1 = await studio.version()
            let connected = await studio.post("{\"version\": \(v1), \"op\": \"connect\", \"from\": \"a\", \"to\": \"b\"}")
            #expect(connected.status == 200, "\(connected.body)")
            #expect(studio.text == "routine \"R\"   # mine\n\nhabit a \"A\" -> b\nhabit b \"B\"\n")
            let v2 = await studio.version()
            #expect(v2 > v1)
            #expect(await studio.post("{\"version\": \(v2), \"op\": \"undo\"}").status == 200)
            #expect(studio.text == text)
            #expect(await studio.post("{\"version\": \(await studio.version()), \"op\": \"redo\"}").status == 200)
            #expect(studio.text == "routine \"R\"   # mine\n\nhabit a \"A\" -> b\nhabit b \"B\"\n")
            let nothing = await studio.post("{\"version\": \(await studio.version()), \"op\": \"redo\"}")
            #expect(nothing.status == 422)
        }
    }

    /// A dialog's Save: written whole and undone in one step, or refused whole.
    @Test(arguments: [
        (#"{"op": "rename", "id": "a", "newId": "x"}, {"op": "setAttributes", "id": "x", "duration": "5 min"}"#, 400, "'5 min' is not a duration"),
        (#"{"op": "setTitle", "id": "a", "title": "New"}, {"op": "rename", "id": "a", "newId": "b"}"#, 422, "a node is already named 'b'"),
        (#"{"op": "together", "ops": []}"#, 400, "'together' holds ops"),
        (
            #"{"op": "rename", "id": "a", "newId": "x"}, {"op": "setTitle", "id": "x", "title": "X"}, {"op": "setAttributes", "id": "x", "duration": "5m"}"#,
            200, ""
        ),
    ])
    func aSaveIsOneEditAllOrNothing(ops: String, status: Int, message: String) async throws {
        let text = "routine \"R\"\n\nhabit a \"A\"\nhabit b \"B\"\n"
        try await StudioFixture.with(text) { studio in
            let v1 = await studio.version()
            let answer = await studio.post("{\"version\": \(v1), \"op\": \"together\", \"ops\": [\(ops)]}")
            #expect(answer.status == status, "\(answer.body)")
            #expect(message.isEmpty || answer.body.contains(message), "\(answer.body)")
            guard status == 200 else {
                #expect(studio.text == text)
                #expect(await studio.version() == v1)
                return
            }
            #expect(studio.text == "routine \"R\"\n\nhabit x \"X\" for 5m\nhabit b \"B\"\n")
            #expect(await studio.post("{\"version\": \(await studio.version()), \"op\": \"undo\"}").status == 200)
            #expect(studio.text == text)
        }
    }

    @Test func aStaleVersionOrAChangedFileIs409() async throws {
        let text = "routine \"R\"\n\nhabit a \"A\"\nhabit b \"B\"\n"
        try await StudioFixture.with(text) { studio in
            let v1 = await studio.version()
            #expect(await studio.post("{\"version\": \(v1 + 5), \"op\": \"delete\", \"id\": \"b\"}").status == 409)
            // Saved by an editor after the page read it: the page's version is now stale.
            try (text + "habit c \"C\"\n").write(toFile: studio.path, atomically: true, encoding: .utf8)
            let answer = await studio.post("{\"version\": \(v1), \"op\": \"delete\", \"id\": \"b\"}")
            #expect(answer.status == 409)
            #expect(answer.body.contains("\"code\":\"E602\""))
            #expect(studio.text == text + "habit c \"C\"\n")
        }
    }

    @Test func aCycleIs422AndNamesItsPath() async throws {
        let text = "routine \"R\"\n\nhabit a \"A\" -> b\nhabit b \"B\" -> c\nhabit c \"C\"\n"
        try await StudioFixture.with(text) { studio in
            let answer = await studio.post("{\"version\": \(await studio.version()), \"op\": \"connect\", \"from\": \"c\", \"to\": \"a\"}")
            #expect(answer.status == 422)
            let json = try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            let error = try #require(json["error"] as? [String: Any])
            #expect(error["code"] as? String == "E204")
            #expect(error["message"] as? String == "routine has a cycle: 'a' -> 'b' -> 'c' -> 'a'")
            #expect(studio.text == text)
        }
    }

    @Test(arguments: [
        ("not JSON", "nope"), ("no version", "{\"op\": \"undo\"}"), ("an unknown op", "{\"version\": 1, \"op\": \"format\"}"),
        ("a wrong type", "{\"version\": 1, \"op\": \"delete\", \"id\": 3}"),
        ("a bound that is not true or false", "{\"version\": 1, \"op\": \"setAttributes\", \"id\": \"a\", \"atMost\": \"yes\"}"),
    ])
    func aMalformedEditIs400(_ name: String, _ body: String) async throws {
        try await StudioFixture.with("routine \"R\"\n\nhabit a \"A\"\n") { studio in
            #expect(await studio.post(body).status == 400)
        }
    }

    @Test func theLiveChannelSendsEveryVersion() async throws {
        let text = "routine \"R\"\n\nhabit a \"A\"\n"
        try await StudioFixture.with(text) { studio in
            let socket = await RawEventStream.open(port: studio.port, headers: studio.pageHeaders)
            #expect(socket.status == 200)
            let first = try #require(await socket.nextData())
            #expect(first == "{\"version\":\(await studio.version())}")
            try (text + "habit b \"B\"\n").write(toFile: studio.path, atomically: true, encoding: .utf8)
            let second = try #require(await socket.nextData())
            #expect(second == "{\"version\":\(await studio.version())}")
            #expect(second != first)
            #expect(await studio.post("{\"version\": \(await studio.version()), \"op\": \"delete\", \"id\": \"b\"}").status == 200)
            #expect(await socket.nextData() == "{\"version\":\(await studio.version())}")
        }
    }

    @Test func aFileThatStopsParsingKeepsTheLastDrawingFaded() async throws {
        let text = "routine \"R\"\n\nhabit a \"A\" -> b\nhabit b \"B\"\n"
        try await StudioFixture.with(text) { studio in
            _ = try await studio.state()
            try "routine \"R\"\n\nhabit a \"A -> b\nhabit b \"B\"\n".write(toFile: studio.path, atomically: true, encoding: .utf8)
            try await Task.sleep(for: .milliseconds(300))
            let state = try await studio.state()
            #expect(state["stale"] as? Bool == true)
            #expect((state["nodes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["a", "b"])
            #expect((state["diagnostics"] as? [[String: Any]])?.first?["code"] as? String == "E005")
        }
    }

    @Test func aYAMLFileWithCommentsIsReadOnly() async throws {
        let yaml = "# mine\nroutine: R\nnodes:\n  - habit: a\n    title: A\n"
        try await StudioFixture.with(yaml, name: "r.yaml") { studio in
            let state = try await studio.state()
            #expect((state["readOnly"] as? String)?.contains("comments") == true)
            #expect(
                await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"a\", \"title\": \"B\"}").status == 422)
            #expect(studio.text == yaml)
        }
        try await StudioFixture.with("routine: R\nnodes:\n  - habit: a\n    title: A\n", name: "r.yaml") { studio in
            #expect(
                await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"a\", \"title\": \"B\"}").status == 200)
            #expect(studio.text.contains("title: B"))
        }
    }

    @Test func playRunsTheRoutineAndDropsAnswersThatNoLongerApply() async throws {
        let text = "routine \"R\"\n\nhabit a \"A\" -> q\nquestion q \"Go on?\"\n  \"Yes\" -> b\n  \"No\"\nhabit b \"B\"\n"
        try await StudioFixture.with(text) { studio in
            func play(_ answers: [String]) async throws -> [String: Any] {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: ["answers": answers]), as: UTF8.self)
                let answer = await studio.http.request("POST", "/api/play", headers: studio.pageHeaders, body: body)
                return try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            }
            let first = try await play(["d", "o0"])
            #expect(first["used"] as? Int == 2)
            #expect((first["prompt"] as? [String: Any])?["id"] as? String == "b")
            // An answer that does not fit where the run is stops the replay there.
            let second = try await play(["d", "s"])
            #expect(second["used"] as? Int == 1)
            #expect((second["prompt"] as? [String: Any])?["id"] as? String == "q")
            #expect(studio.text == text)
        }
    }

    /// Play on a chosen day takes that day's branch, and a numeric habit takes an amount.
    @Test(
        arguments: [
            ("2026-11-23", ["v12"], "done: 12 of 20 reps", "mon"),  // a Monday
            ("2026-11-24", ["d"], "done: 20 of 20 reps", "not scheduled on Tuesdays"),
            ("2026-11-24", ["v-1"], nil, "pushups"),  // not an amount: the replay stops there
        ] as [(String, [String], String?, String)])
    func playTakesADateAndAnAmount(date: String, answers: [String], pushups: String?, then: String) async throws {
        let text = "routine \"R\"\n\nhabit pushups \"Push-ups\" target 20 reps -> mon\nhabit mon \"Monday only\" on mon\n"
        try await StudioFixture.with(text) { studio in
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["answers": answers, "date": date]), as: UTF8.self)
            let answer = await studio.send("POST", "/api/play", body)
            let result = try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
            #expect(result["date"] as? String == date)
            let steps = try #require(result["steps"] as? [[String: Any]])
            #expect(steps.first?["outcome"] as? String == pushups)
            let prompt = result["prompt"] as? [String: Any]
            if then == "mon" || then == "pushups" {
                #expect(prompt?["id"] as? String == then)
                if then == "pushups" { #expect(prompt?["target"] as? Double == 20) }
            } else {
                #expect(steps.last?["outcome"] as? String == then)
            }
            #expect(await studio.send("POST", "/api/play", #"{"answers": [], "date": "2026-02-30"}"#).status == 400)
        }
    }

    @Test func aRoutineIsBuiltFromNoFileAtAll() async throws {
        try await StudioFixture.with("", name: "morning.rt") { studio in
            try FileManager.default.removeItem(atPath: studio.path)
            try await Task.sleep(for: .milliseconds(300))
            let added = await studio.post("{\"version\": \(await studio.version()), \"op\": \"addHabit\", \"title\": \"Drink a glass of water\"}")
            #expect(added.status == 200, "\(added.body)")
            #expect(studio.text == "routine \"morning\"\n\nhabit drink-a-glass-of-water \"Drink a glass of water\"\n")
            let question = await studio.post(
                "{\"version\": \(await studio.version()), \"op\": \"addQuestion\", \"id\": \"mood\", \"text\": \"How are you?\", \"options\": [\"Fine\", \"Tired\"]}"
            )
            #expect(question.status == 200)
            let connected = await studio.post(
                "{\"version\": \(await studio.version()), \"op\": \"connect\", \"from\": \"drink-a-glass-of-water\", \"to\": \"mood\"}")
            #expect(connected.status == 200)
            #expect(
                studio.text
                    == "routine \"morning\"\n\nhabit drink-a-glass-of-water \"Drink a glass of water\" -> mood\n\nquestion mood \"How are you?\"\n  \"Fine\"\n  \"Tired\"\n"
            )
        }
    }

    /// Each problem names the node whose lines hold it, in either format; one before the first
    /// node names none.
    @Test(arguments: [
        (
            "r.rt", "routine \"R\"\nstart -> ghost\n\nhabit a \"A\" -> nowhere\nhabit b \"B\"\n  for 5x\n",
            [2: nil, 4: "a", 6: "b"] as [Int: String?]
        ),
        (
            "r.yaml",
            "routine: R\nstart: [ghost]\nnodes:\n  - habit: a\n    title: A\n    next: [nowhere]\n  - title: B\n    habit: b\n    for: 5x\n",
            [2: nil, 6: "a", 9: "b"]
        ),
    ])
    func eachProblemNamesItsNode(_ name: String, _ text: String, _ expected: [Int: String?]) async throws {
        try await StudioFixture.with(text, name: name) { studio in
            let diagnostics = try #require(try await studio.state()["diagnostics"] as? [[String: Any]])
            var seen: [Int: String?] = [:]
            for diagnostic in diagnostics {
                let line = try #require(diagnostic["line"] as? Int)
                seen[line] = diagnostic["node"] as? String
            }
            #expect(seen == expected, "\(diagnostics)")
        }
    }
}
