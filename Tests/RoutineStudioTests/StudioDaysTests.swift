import Foundation
import Testing

@testable import RoutineStudio

/// `GET /api/stats` and `GET /api/days-off`: the bytes of `routine stats --json` (less the
/// questions' habits tables, given one at a time) on a history
/// backfilled by the built binary, the refusals of `stats`' dates, a routine with errors,
/// `--no-history`, and a change to the history seen at once.
@Suite(.serialized)
struct StudioDaysTests {
    static let routine = """
        routine "Days"
        habit water "Glass of water" -> pushups
        habit pushups "Push-ups" target 20 reps -> run
        habit run "Run" on mon wed fri -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
        habit gym "Gym"
        habit nap "Nap"

        """

    /// Runs of 2026-11-02 to 2026-11-12 (a Monday to a Thursday), some days without a run,
    /// answers varied: done, skipped, values, both answers of the question.
    static let backfill: [(date: String, answers: [String])] = [
        ("2026-11-02", ["d", "25", "d", "1", "d"]), ("2026-11-03", ["d", "15", "2", "d"]),
        ("2026-11-04", ["s", "20", "s", "1", "s"]), ("2026-11-06", ["d", "30", "d", "2", "d"]),
        ("2026-11-07", ["d", "s", "1", "d"]), ("2026-11-09", ["d", "22", "d", "1", "d"]),
        ("2026-11-12", ["d", "5", "2", "s"]),
    ]

    /// `routine ARGUMENTS` built beside the tests, with a home and XDG folders of its own.
    static func routine(_ arguments: [String], stdin: String = "") throws -> (out: String, status: Int32) {
        let result = try StudioRunBinary.run(arguments, input: stdin)
        return (result.stdout, result.status)
    }

    /// Records the backfill in the studio's history, as a person would at a terminal.
    static func fill(_ studio: StudioFixture) throws {
        let history = try #require(studio.historyPath)
        for run in backfill {
            let ran = try routine(["run", studio.path, "--date", run.date, "--history", history], stdin: run.answers.joined(separator: "\n") + "\n")
            #expect(ran.status == 0, "run on \(run.date)")
        }
        #expect(try routine(["done", studio.path, "water", "--date", "2026-11-05", "--history", history]).status == 0)
        #expect(try routine(["off", studio.path, "2026-11-10", "--reason", "travel", "--history", history]).status == 0)
    }

    /// `stats --json`'s bytes as the studio gives them: each question's habits table left out
    /// (the page asks for one with `?question=ID`, whose bytes are `stats --question ID --json`'s).
    static func withoutTables(_ json: String, _ studio: StudioFixture, history: String? = nil, flags: [String]) throws -> String {
        let history = try history ?? #require(studio.historyPath)
        let table = try routine(["stats", studio.path, "--json", "--question", "mood", "--history", history] + flags).out
        let members = try #require(table.range(of: #","habits":"#), "\(table)")
        #expect(json.contains(table.dropLast()))
        return json.replacingOccurrences(of: table.dropLast(), with: table[..<members.lowerBound] + "}")
    }

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
    }

    @Test(
        arguments: [
            ("the whole history up to today", nil, nil),
            ("a window", "2026-11-03", "2026-11-10"),
            ("from a day on", "2026-11-05", nil),
            ("up to a day", nil, "2026-11-08"),
        ] as [(String, String?, String?)])
    func theAnswerIsTheCommandsJSONByteForByte(_ name: String, since: String?, until: String?) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            try Self.fill(studio)
            let query = [since.map { "since=\($0)" }, until.map { "until=\($0)" }].compactMap { $0 }.joined(separator: "&")
            let answer = await studio.get("/api/stats" + (query.isEmpty ? "" : "?" + query))
            #expect(answer.status == 200, "\(answer.body)")
            let flags = (since.map { ["--since", $0] } ?? []) + (until.map { ["--until", $0] } ?? [])
            let command = try Self.routine(["stats", studio.path, "--json", "--history", try #require(studio.historyPath)] + flags)
            #expect(command.status == 0)
            #expect(command.out.contains("\"status\":\"done\""))
            #expect(answer.body == (try Self.withoutTables(command.out, studio, flags: flags)))
            let table = await studio.get("/api/stats?question=mood" + (query.isEmpty ? "" : "&" + query))
            #expect(table.status == 200)
            let path = try #require(studio.historyPath)
            #expect(table.body == (try Self.routine(["stats", studio.path, "--json", "--question", "mood", "--history", path] + flags).out))
        }
    }

    @Test func theJSONHasTheShapeOfStats() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            try Self.fill(studio)
            let stats = try Self.object(await studio.get("/api/stats?until=2026-11-12"))
            #expect(stats["routine"] as? String == "Days")
            #expect(stats["from"] as? String == "2026-11-02")
            #expect(stats["until"] as? String == "2026-11-12")
            let habits = try #require(stats["habits"] as? [[String: Any]])
            #expect(habits.map { $0["id"] as? String } == ["water", "pushups", "run", "gym", "nap"])
            let pushups = try #require(habits.first { $0["id"] as? String == "pushups" })
            #expect(pushups["target"] as? Double == 20)
            #expect(pushups["valuesGiven"] as? Int == 6)
            let days = try #require(pushups["days"] as? [[String: Any]])
            #expect(days.count == 11)
            #expect(days[0]["value"] as? Double == 25)
            let run = try #require(habits.first { $0["id"] as? String == "run" }?["days"] as? [[String: Any]])
            #expect(run.map { $0["status"] as? String }[0..<3] == ["done", "not-due", "skipped"])
            #expect(try #require(habits.first?["days"] as? [[String: Any]])[8]["status"] as? String == "not-due", "the day off")
            let questions = try #require(stats["questions"] as? [[String: Any]])
            #expect(questions.first?["id"] as? String == "mood")
            let routineDays = try #require(stats["days"] as? [[String: Any]])
            #expect(routineDays.count == 11)
            for key in ["date", "done", "due", "share"] { #expect(routineDays[0].keys.contains(key), "\(key)") }
            let off = try Self.object(await studio.get("/api/days-off"))
            let list = try #require(off["daysOff"] as? [[String: Any]])
            #expect(list.map { $0["date"] as? String } == ["2026-11-10"])
            #expect(list.first?["reason"] as? String == "travel")
        }
    }

    @Test(arguments: [
        ("not a date", "since=2026-13-01", "since '2026-13-01' is not a date: use YYYY-MM-DD, such as 2026-11-23"),
        ("before the years", "since=1899-12-31", "since '1899-12-31' is outside the years routine supports, 1900 to 2199"),
        ("after the years", "until=2200-01-01", "until '2200-01-01' is outside the years routine supports, 1900 to 2199"),
        ("since after until", "since=2026-11-25&until=2026-11-20", "since 2026-11-25 comes after until 2026-11-20"),
    ])
    func badDatesAreRefusedWithTheReason(_ name: String, query: String, reason: String) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            for path in ["/api/stats", "/api/days-off"] {
                let answer = await studio.get("\(path)?\(query)")
                #expect(answer.status == 400)
                let error = try #require(try Self.object(answer)["error"] as? [String: Any])
                #expect(error["message"] as? String == reason)
            }
        }
    }

    @Test func aRoutineWithErrorsHasNoStatistics() async throws {
        try await StudioFixture.with("routine \"Broken\"\nhabit a \"A\" -> nowhere\n", history: true) { studio in
            let answer = await studio.get("/api/stats")
            #expect(answer.status == 422)
            let refusal = try Self.object(answer)
            #expect(refusal["error"] is [String: Any])
            #expect(await studio.get("/api/days-off").status == 422)
        }
    }

    @Test func withoutAHistoryTheStatisticsAreThoseOfAnEmptyOne() async throws {
        try await StudioFixture.with(Self.routine) { studio in
            let answer = await studio.get("/api/stats?since=2026-11-01&until=2026-11-07")
            #expect(answer.status == 200)
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-history-\(UUID().uuidString).sqlite").path
            let flags = ["--since", "2026-11-01", "--until", "2026-11-07"]
            let command = try Self.routine(["stats", studio.path, "--json", "--history", missing] + flags)
            #expect(answer.body == (try Self.withoutTables(command.out, studio, history: missing, flags: flags)))
            let off = try Self.object(await studio.get("/api/days-off"))
            #expect(off["daysOff"] as? [Any] != nil)
        }
    }

    @Test func aRunInATerminalShowsInTheNextAnswer() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            try Self.fill(studio)
            let before = await studio.get("/api/stats?until=2026-11-13")
            let history = try #require(studio.historyPath)
            #expect(try Self.routine(["run", studio.path, "--date", "2026-11-13", "--history", history], stdin: "d\n20\nd\n1\nd\n").status == 0)
            let after = await studio.get("/api/stats?until=2026-11-13")
            #expect(after.body != before.body)
            let command = try Self.routine(["stats", studio.path, "--json", "--history", history, "--until", "2026-11-13"])
            #expect(after.body == (try Self.withoutTables(command.out, studio, flags: ["--until", "2026-11-13"])))
        }
    }
}
