import Foundation
import Testing

@testable import RoutineKit
@testable import RoutineStudio

/// Issue 27's promise: morning.rt built from an empty file through the API alone, each op as
/// the page sends it, gives a file that means what morning.rt means and reads as if written by
/// hand (`fmt --check` clean).
@Suite(.serialized)
struct StudioBuildFromEmptyTests {
    /// The page's ops, in the order a person might make them.
    static let ops: [String] = [
        #""op": "setName", "name": "Morning""#,
        #""op": "addHabit", "id": "water", "title": "Drink a glass of water""#,
        #""op": "addHabit", "id": "stretch", "title": "Stretch""#,
        #""op": "setAttributes", "id": "stretch", "duration": "5m""#,
        #""op": "connect", "from": "water", "to": "stretch""#,
        #""op": "addQuestion", "id": "mood", "text": "How are you feeling today?", "options": ["Great!", "Okay", "Not so good", "Skip today"]"#,
        #""op": "addOption", "id": "mood", "text": "Tired""#,
        #""op": "connect", "from": "stretch", "to": "mood""#,
        #""op": "addHabit", "id": "run", "title": "Run""#,
        #""op": "setAttributes", "id": "run", "duration": "30m", "days": ["mon", "wed", "fri"]"#,
        #""op": "addHabit", "id": "meditate", "title": "Meditate""#,
        #""op": "setAttributes", "id": "meditate", "duration": 600"#,
        #""op": "addHabit", "id": "walk", "title": "Go for a walk""#,
        #""op": "setAttributes", "id": "walk", "duration": "20m""#,
        #""op": "addHabit", "id": "journal", "title": "Write three lines""#,
        #""op": "setAttributes", "id": "journal", "note": "What went well yesterday?""#,
        #""op": "addHabit", "id": "shower", "title": "Cold shower""#,
        #""op": "setAttributes", "id": "shower", "duration": "3m""#,
        #""op": "addHabit", "id": "plan", "title": "Plan the day""#,
        #""op": "setAttributes", "id": "plan", "days": "weekdays""#,
        #""op": "addHabit", "id": "water2", "title": "Drink water""#,
        #""op": "setAttributes", "id": "water2", "target": 8, "unit": "glasses""#,
        #""op": "connect", "from": "mood", "option": 0, "to": "run""#,
        #""op": "connect", "from": "mood", "option": 0, "to": "meditate""#,
        #""op": "connect", "from": "mood", "option": 1, "to": "walk""#,
        #""op": "connect", "from": "mood", "option": 2, "to": "journal""#,
        #""op": "connect", "from": "mood", "option": 3, "to": "end""#,
        #""op": "connect", "from": "mood", "to": "plan""#,
        #""op": "connect", "from": "run", "to": "shower""#,
        #""op": "connect", "from": "meditate", "to": "plan""#,
        #""op": "connect", "from": "walk", "to": "plan""#,
        #""op": "connect", "from": "journal", "to": "plan""#,
        #""op": "connect", "from": "plan", "to": "water2""#,
    ]

    @Test func morningIsBuiltFromAnEmptyFile() async throws {
        try await StudioFixture.with("", name: "morning.rt") { studio in
            for op in Self.ops {
                let answer = await studio.post("{\"version\": \(await studio.version()), \(op)}")
                #expect(answer.status == 200, "\(op): \(answer.body)")
            }
            let built = RoutineLoader.load(SourceFile(name: "morning.rt", text: studio.text))
            #expect(built.diagnostics.isEmpty, "\(built.diagnostics.map(\.message))")
            // morning.rt's optional `start -> water` says what the first declaration says anyway.
            let original = StudioAPITests.morning.replacingOccurrences(
                of: "start -> water                       # optional; default: the first node declared. Several: start -> a, b\n\n", with: "")
            let morning = RoutineLoader.load(SourceFile(name: "morning.rt", text: original))
            #expect(morning.routine.explicitStart.isEmpty)
            #expect(built.routine.isEquivalent(to: morning.routine), "\(studio.text)")
            #expect(RoutineEditor.isCanonical(built), "\(studio.text)")
            // Every op undone, one at a time, gives back the empty file.
            for _ in Self.ops {
                #expect(await studio.post("{\"version\": \(await studio.version()), \"op\": \"undo\"}").status == 200)
            }
            #expect(studio.text == "")
        }
    }

    @Test func anEmptyNameIsRefused() async throws {
        try await StudioFixture.with("routine \"R\"  # mine\n", name: "r.rt") { studio in
            let answer = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setName\", \"name\": \" \"}")
            #expect(answer.status == 422)
            #expect(answer.body.contains("a routine's name cannot be empty"))
            let renamed = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setName\", \"name\": \"Evening <b>\"}")
            #expect(renamed.status == 200)
            #expect(studio.text == "routine \"Evening <b>\"  # mine\n")
        }
    }
}
