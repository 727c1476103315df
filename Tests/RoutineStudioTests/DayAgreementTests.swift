import Foundation
import Testing

@testable import RoutineStudio

/// One history, written by the terminal, read by every view of a day: `today --json`, `stats
/// --json`, `log --date`, the studio's Today (`GET /api/today`) and Your days (`GET /api/stats`,
/// `GET /api/day`). On a run's day, a day whose answer was amended, a day off and a day of logs
/// only, each habit is the same in all of them.
@Suite(.serialized)
struct DayAgreementTests {
    static let routine = """
        routine "Agree"
        habit water "Water" -> coffee
        habit coffee "Coffee" target at most 2 cups -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
        habit gym "Gym"
        habit nap "Nap"

        """

    /// What a habit is on a day, in one word every view can be mapped to: `today`'s
    /// done/skipped/due/maybe/not-due, the statistics' done/skipped/missed/unknown/not-due.
    enum Verdict: String, CaseIterable {
        case done, skipped, due, maybe
        case notDue = "not-due"

        init?(today word: String) { self.init(rawValue: word) }

        init?(stats word: String) {
            switch word {
            case "missed": self = .due
            case "unknown": self = .maybe
            default: self.init(rawValue: word)
            }
        }
    }

    /// Monday: a run under the limit. Tuesday: a run over it whose answer was then amended
    /// (Good to Bad: Gym is off the way, Nap on it and never recorded). Wednesday: a day off.
    /// Thursday: logs only, as an import from another tracker writes.
    static let days: [(date: String, habits: [String: Verdict], coffee: String?, dayOff: String?)] = [
        ("2026-11-23", ["water": .done, "coffee": .done, "gym": .done, "nap": .notDue], "1 · at most 2 cups", nil),
        ("2026-11-24", ["water": .done, "coffee": .done, "gym": .notDue, "nap": .due], "3 · over the limit of 2 cups", nil),
        ("2026-11-25", ["water": .notDue, "coffee": .notDue, "gym": .notDue, "nap": .notDue], nil, "day off (sick)"),
        ("2026-11-26", ["water": .done, "coffee": .done, "gym": .maybe, "nap": .maybe], "2 · at most 2 cups", nil),
    ]

    /// The history of ``days``, written through the built `routine` as a person would.
    static func write(_ path: String, _ history: String) throws {
        func routine(_ arguments: [String], input: String = "") throws {
            let result = try StudioRunBinary.run(arguments + ["--history", history], input: input)
            #expect(result.status == 0, "routine \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        try routine(["run", path, "--date", "2026-11-23"], input: "d\n1\n1\nd\n")
        try routine(["run", path, "--date", "2026-11-24"], input: "d\n3\n1\nd\n")
        try routine(["amend", path, "2026-11-24", "mood", "Bad"])
        try routine(["off", path, "2026-11-25", "--reason", "sick"])
        try routine(["done", path, "water", "--date", "2026-11-26"])
        try routine(["done", path, "coffee", "2", "--date", "2026-11-26"])
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// `today --json`'s and `GET /api/today`'s habits, by node.
    static func todayHabits(_ day: [String: Any]) -> [String: [String: Any]] {
        let habits = (day["routines"] as? [[String: Any]])?.first?["habits"] as? [[String: Any]] ?? []
        return Dictionary(habits.map { ($0["node"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// `stats --json`'s status of each habit on `date`.
    static func statsVerdicts(_ stats: [String: Any], on date: String) -> [String: Verdict] {
        var verdicts: [String: Verdict] = [:]
        for habit in stats["habits"] as? [[String: Any]] ?? [] {
            let day = (habit["days"] as? [[String: Any]])?.first { $0["date"] as? String == date }
            if let id = habit["id"] as? String, let word = day?["status"] as? String { verdicts[id] = Verdict(stats: word) }
        }
        return verdicts
    }

    @Test func everyViewOfADayAgrees() async throws {
        try await StudioFixture.with(Self.routine, history: true, before: { path, history in try Self.write(path, history!) }) { studio in
            let history = try #require(studio.historyPath)
            let path = studio.path
            // The statistics over the four days and one after, so that none is the open last day.
            let stats = try StudioRunBinary.run(["stats", path, "--since", "2026-11-23", "--until", "2026-11-27", "--json", "--history", history])
            #expect(stats.status == 0, "\(stats.stderr)")
            let terminalStats = try Self.object(stats.stdout)
            let studioStats = try Self.object(await studio.get("/api/stats?since=2026-11-23&until=2026-11-27").body)
            let table = try StudioRunBinary.run(["stats", path, "--since", "2026-11-23", "--until", "2026-11-27", "--history", history])
            // Thursday's logs are a day with records, as the runs' days are; Wednesday is off.
            #expect(table.stdout.contains("5 days, 3 with records, 1 off"), "\(table.stdout)")

            for (date, expected, coffee, dayOff) in Self.days {
                let today = try StudioRunBinary.run(["today", path, "--date", date, "--json", "--history", history])
                #expect(today.status == 0, "\(today.stderr)")
                let terminalDay = try Self.object(today.stdout)
                let studioDay = try Self.object(await studio.get("/api/today?date=\(date)").body)
                for (view, day) in [("today --json", terminalDay), ("GET /api/today", studioDay)] {
                    let habits = Self.todayHabits(day)
                    let verdicts = habits.compactMapValues { ($0["status"] as? String).flatMap(Verdict.init(today:)) }
                    #expect(verdicts == expected, "\(view) on \(date)")
                    #expect(habits["coffee"]?["valueText"] as? String == coffee, "\(view) on \(date)")
                    #expect(habits["coffee"]?["targetText"] as? String == "at most 2 cups", "\(view) on \(date)")
                    let off = (day["routines"] as? [[String: Any]])?.first?["dayOff"] as? [String: Any]
                    #expect(off?["text"] as? String == dayOff, "\(view) on \(date)")
                }
                #expect(Self.statsVerdicts(terminalStats, on: date) == expected, "stats --json on \(date)")
                #expect(Self.statsVerdicts(studioStats, on: date) == expected, "GET /api/stats on \(date)")

                // The day view: what it offers to add is exactly what is due and unrecorded,
                // and never a habit a counted step did.
                let record = try Self.object(await studio.get("/api/day?date=\(date)").body)
                let missing = Set((record["missing"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? String })
                #expect(missing == Set(expected.filter { $0.value == .due }.keys), "GET /api/day on \(date)")
                #expect(missing.isDisjoint(with: expected.filter { $0.value == .done }.keys), "GET /api/day on \(date)")

                let check = try StudioRunBinary.run(["today", path, "--date", date, "--check", "--history", history])
                #expect(check.status == (expected.values.contains(.due) ? 1 : 0), "today --check on \(date): \(check.stdout)")
                let log = try StudioRunBinary.run(["log", path, "--date", date, "--history", history])
                if let coffee { #expect(log.stdout.contains("Coffee: \(coffee)"), "log --date \(date): \(log.stdout)") }
                if dayOff != nil { #expect(log.stdout.contains("sick"), "log --date \(date): \(log.stdout)") }
            }
            let amended = try StudioRunBinary.run(["log", path, "--date", "2026-11-24", "--history", history])
            #expect(amended.stdout.contains("Mood? Bad (amended)"), "\(amended.stdout)")
        }
    }

    /// Every output of `today` on a day off says so, asks nothing, and reminds of nothing.
    static let barForms: [(String, [String], String)] = [
        ("table", [], "Agree · Wednesday 2026-11-25 · day off (sick)\n"),
        ("short", ["--format", "short"], "day off (sick)\n"),
        ("tmux", ["--format", "tmux"], "day off (sick)\n"),
        ("i3blocks", ["--format", "i3blocks"], "day off (sick)\nday off (sick)\n#6272A4\n"),
        (
            "waybar", ["--format", "waybar"],
            #"{"text":"day off (sick)","tooltip":"day off (sick)","class":"off","percentage":100}"# + "\n"
        ),
    ]

    @Test(arguments: barForms)
    func aDayOffIsSaidByEveryForm(_ name: String, _ arguments: [String], _ expected: String) async throws {
        try await StudioFixture.with(Self.routine, history: true, before: { path, history in try Self.write(path, history!) }) { studio in
            let history = try #require(studio.historyPath)
            let result = try StudioRunBinary.run(["today", studio.path, "--date", "2026-11-25", "--history", history] + arguments)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.hasPrefix(expected), "\(name): \(result.stdout)")
            let check = try StudioRunBinary.run(["today", studio.path, "--date", "2026-11-25", "--check", "--history", history] + arguments)
            #expect(check.status == 0, "\(name) --check: \(check.stdout)")
        }
    }

    /// A reminder (`today --notify`, what `routine remind` installs) says nothing on a day off,
    /// and does on a day with something due: a notify-send that leaves a mark when started.
    @Test func remindersStayQuietOnADayOff() async throws {
        try await StudioFixture.with(Self.routine, history: true, before: { path, history in try Self.write(path, history!) }) { studio in
            let history = try #require(studio.historyPath)
            let bin = URL(fileURLWithPath: history).deletingLastPathComponent().appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let mark = bin.appendingPathComponent("notified").path
            let stub = bin.appendingPathComponent("notify-send")
            try "#!/bin/sh\necho \"$@\" >> '\(mark)'\n".write(to: stub, atomically: true, encoding: .utf8)
            chmod(stub.path, 0o755)
            for (date, notified) in [("2026-11-25", false), ("2026-11-24", true)] {
                let process = StudioRunBinary.process(
                    ["today", studio.path, "--date", date, "--notify", "--history", history], environment: ["PATH": bin.path + ":/usr/bin:/bin"])
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(date)")
                #expect(FileManager.default.fileExists(atPath: mark) == notified, "\(date)")
            }
        }
    }

    /// The studio's Today undoes a day off, and makes one again, as `routine off` does.
    @Test func theStudioUndoesADayOff() async throws {
        try await StudioFixture.with(Self.routine, history: true, before: { path, history in try Self.write(path, history!) }) { studio in
            let undone = await studio.send("POST", "/api/day-off", #"{"date": "2026-11-25", "undo": true}"#)
            #expect(undone.status == 200, "\(undone.body)")
            let day = try Self.object(undone.body)
            #expect((day["routines"] as? [[String: Any]])?.first?["dayOff"] == nil)
            #expect(Self.todayHabits(day)["water"]?["status"] as? String == "due")
            let again = await studio.send("POST", "/api/day-off", #"{"date": "2026-11-25", "reason": "holiday"}"#)
            let off = (try Self.object(again.body)["routines"] as? [[String: Any]])?.first?["dayOff"] as? [String: Any]
            #expect(off?["text"] as? String == "day off (holiday)")
            #expect(await studio.send("POST", "/api/day-off", #"{"date": "2026-11-25", "undo": true, "reason": "x"}"#).status == 400)
            #expect(await studio.send("POST", "/api/day-off", #"{"undo": true}"#).status == 400)
        }
    }
}
