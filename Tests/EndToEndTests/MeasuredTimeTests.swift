import Foundation
import Testing

/// Only a person at a terminal is timed: a scripted run records no time (null, not the
/// moment between two lines), and `run`'s summary, `log`, `stats` and the export say so; a
/// resumed run keeps the times measured before it stopped.
@Suite(.serialized)
struct MeasuredTimeTests {
    /// The runs in `history` as JSON objects, oldest first.
    func runs(_ history: String) throws -> [[String: Any]] {
        let result = try execute(["history", "export", "--history", history])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Each step's node and seconds (nil for JSON null), in order.
    func seconds(_ run: [String: Any]) -> [(node: String, seconds: Double?)] {
        (run["steps"] as? [[String: Any]] ?? []).map { ($0["node"] as? String ?? "", $0["seconds"] as? Double) }
    }

    struct Script: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let stdin: String
        var testDescription: String { name }
    }

    static let answers = "done\n\nGreat\ns\n\nd\n\n7\n"
    static let scripts = [
        Script(name: "answers on a pipe", arguments: [], stdin: answers),
        Script(name: "--answers FILE", arguments: ["--answers", "ANSWERS"], stdin: ""),
        Script(name: "--json", arguments: ["--json"], stdin: answers),
    ]

    @Test(arguments: scripts)
    func aScriptedRunRecordsNoTime(_ script: Script) throws {
        let folder = try temporaryDirectory()
        let answers = folder.appendingPathComponent("answers.txt")
        try Self.answers.write(to: answers, atomically: true, encoding: .utf8)
        let history = folder.appendingPathComponent("history.sqlite").path
        let arguments =
            ["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"]
            + script.arguments.map { $0 == "ANSWERS" ? answers.path : $0 }
        let run = try execute(arguments, stdin: script.stdin)
        #expect(run.status == 0, "\(run.stderr)")
        if script.arguments == ["--json"] {
            #expect(run.stdout.hasSuffix(#""plannedSeconds":1080,"elapsedSeconds":null}"# + "\n"), "\(run.stdout)")
        } else {
            #expect(run.stdout.hasSuffix("  planned 18m · time not measured\n"), "\(run.stdout)")
        }
        let recorded = try #require(try runs(history).first)
        #expect(seconds(recorded).count == 8)
        #expect(seconds(recorded).allSatisfy { $0.seconds == nil }, "\(seconds(recorded))")

        let day = try execute(["log", "routines/morning.rt", "--history", history, "--date", "2026-11-23"])
        #expect(day.stdout.contains("\n  2. Stretch: done\n  3. How are you feeling today? Great!\n"), "\(day.stdout)")
        #expect(day.stdout.hasSuffix("\n  6 done, 1 skipped, 0 not scheduled · water2 7/8\n"), "\(day.stdout)")
        let stats = try execute(["stats", "routines/morning.rt", "--history", history, "--until", "2026-11-23"])
        #expect(stats.stdout.contains("stretch "), "\(stats.stdout)\(stats.stderr)")
        #expect(!stats.stdout.contains("measured 0s"), "\(stats.stdout)")
        #expect(stats.stdout.components(separatedBy: "time: planned 5m · not measured yet").count == 2, "\(stats.stdout)")
        let csv = try execute(["history", "export", "--format", "csv", "--history", history])
        #expect(csv.stdout.split(separator: "\r\n").dropFirst().allSatisfy { $0.hasSuffix("Z,,run") }, "\(csv.stdout)")
    }

    /// At a terminal each decision is timed and the countdown's time is the habit's; a run
    /// quit and resumed keeps those times: its summary, the history and `stats` show them.
    @Test func aPersonIsTimedAndAResumedRunKeepsTheTimes() throws {
        let history = freshHistoryPath()
        let command = "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06"
        let environment = ["TERM": "xterm-256color", "ROUTINE_TEST_CLOCK_SPEED": "60", "ROUTINE_HISTORY": history]
        let first = try TmuxSession(command: command, environment: environment)
        try first.waitFor("done? >")
        var screen = try first.walk([
            ("Enter", "done? (t: timer) >"), ("t", "time is up"), ("Enter", "answer (1-5)"), ("1", "Step 4 · Morning"), ("q", "[exit=0]"),
        ])
        #expect(screen.contains("Morning: quit"))
        #expect(screen.range(of: #"Stretch: planned 5m · took ([5-9]|1[0-9])m"#, options: .regularExpression) != nil, "\(screen)")

        let quit = try #require(try runs(history).first)
        let measured = seconds(quit)
        #expect(measured.map(\.node) == ["water", "stretch", "mood"])
        #expect(measured.allSatisfy { ($0.seconds ?? 0) > 0 }, "\(measured)")
        // The countdown's time, not the moments around it: 5 minutes at 60 times the speed,
        // and the moments until Enter reached it (a second is a minute here).
        #expect((300..<1200).contains(measured[1].seconds ?? 0), "\(measured)")

        let second = try TmuxSession(command: command, environment: environment)
        try second.waitFor("[Y/n]")
        try second.send("y")
        Thread.sleep(forTimeInterval: 0.3)
        if try !second.screen().contains("resumed at step") { try second.send("Enter") }
        try second.waitFor("resumed at step 4")
        try second.send("s")
        try second.waitFor("Cold shower")
        try second.send("d")
        try second.waitFor("Meditate")
        try second.send("d")
        try second.waitFor("Plan the day")
        try second.send("d")
        try second.waitFor("amount [8 glasses] >")
        try second.send("Enter")
        try second.waitFor("Enter to finish")
        try second.send("Enter")
        screen = try second.waitFor("[exit=0]")
        #expect(screen.contains("Morning: completed"))
        // Stretch was done before the run stopped: its time is still the countdown's.
        #expect(screen.range(of: #"Stretch: planned 5m · took ([5-9]|1[0-9])m"#, options: .regularExpression) != nil, "\(screen)")
        #expect(screen.range(of: #"planned 18m · took ([5-9]|1[0-9])m"#, options: .regularExpression) != nil, "\(screen)")

        let resumed = try #require(try runs(history).first)
        let all = seconds(resumed)
        #expect(all.map(\.node) == ["water", "stretch", "mood", "run", "shower", "meditate", "plan", "water2"])
        #expect(Array(all.prefix(3).map(\.seconds)) == measured.map(\.seconds))
        #expect(all.allSatisfy { ($0.seconds ?? 0) > 0 }, "\(all)")
        let stats = try execute(["stats", "routines/morning.rt", "--history", history, "--until", "2020-01-06"])
        #expect(stats.stdout.range(of: #"time: planned 5m · measured ([5-9]|1[0-9])m"#, options: .regularExpression) != nil, "\(stats.stdout)")
    }
}
