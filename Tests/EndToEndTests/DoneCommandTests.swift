import Foundation
import Testing

/// `routine done`: logs outside a run, their refusals, and the runner passing over them.
@Suite(.serialized)
struct DoneCommandTests {
    /// Monday 2026-11-23 to Wednesday 2026-11-25 are the days used.
    static let routine = """
        routine "Logs"
        habit water "Glass of water" -> pushups
        habit pushups "Push-ups" target 20 reps -> stretch
        habit stretch "Stretch" for 5m -> run
        habit run "Run" on mon wed fri -> read
        habit read "Read" 2 per week -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
        habit gym "Gym"
        habit nap "Nap"

        """

    struct Fixture {
        let dir: URL
        let file: String
        let history: String

        init() throws {
            dir = try temporaryDirectory()
            file = dir.appendingPathComponent("logs.rt").path
            try DoneCommandTests.routine.write(toFile: file, atomically: true, encoding: .utf8)
            history = dir.appendingPathComponent("h.sqlite").path
        }

        func routine(_ arguments: [String], stdin: String? = "") throws -> Execution {
            try execute(arguments.map { $0 == "FILE" ? file : $0 } + ["--history", history], stdin: stdin)
        }

        /// The history as `history export` writes it.
        func export() throws -> String {
            let result = try execute(["history", "export", "--history", history])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }

        func runs() throws -> [[String: Any]] {
            try export().split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
    }

    static func steps(_ run: [String: Any]) -> [[String: Any]] { run["steps"] as? [[String: Any]] ?? [] }

    @Test func eachKindOfLogIsRecordedAsALogWithOneStep() throws {
        let f = try Fixture()
        let binary = try f.routine(["done", "FILE", "water", "--date", "2026-11-24"])
        #expect(binary.status == 0, "\(binary.stderr)")
        #expect(binary.stdout.hasPrefix("Glass of water: done, logged at "))
        #expect(binary.stdout.hasSuffix(" for Tuesday 2026-11-24\n"))
        let numeric = try f.routine(["done", "FILE", "pushups", "25", "--date", "2026-11-24"])
        #expect(numeric.stdout.hasPrefix("Push-ups: 25 of 20 reps, logged at "), "\(numeric.stderr)")
        let timed = try f.routine(["done", "FILE", "stretch", "--took", "7m", "--date", "2026-11-24"])
        #expect(timed.stdout.hasPrefix("Stretch: done in 7m, logged at "), "\(timed.stderr)")
        let skip = try f.routine(["done", "FILE", "read", "--skip", "--date", "2026-11-24"])
        #expect(skip.stdout.hasPrefix("Read: skipped, logged at "), "\(skip.stderr)")
        let runs = try f.runs()
        #expect(runs.count == 4)
        #expect(runs.allSatisfy { $0["kind"] as? String == "log" && $0["result"] as? String == "completed" && Self.steps($0).count == 1 })
        let steps = runs.flatMap(Self.steps)
        #expect(steps.map { $0["node"] as? String } == ["water", "pushups", "stretch", "read"])
        #expect(steps.map { $0["result"] as? String } == ["done", "done", "done", "skipped"])
        #expect(steps[1]["value"] as? Double == 25 && steps[1]["target"] as? Double == 20)
        #expect(steps[2]["seconds"] as? Double == 420)

        let undo = try f.routine(["done", "FILE", "pushups", "--undo", "--date", "2026-11-24"])
        #expect(undo.status == 0 && undo.stdout.contains("Push-ups: took back the log of "), "\(undo.stderr)")
        #expect(try f.runs().flatMap(Self.steps).map { $0["node"] as? String } == ["water", "stretch", "read"])
        let table = try f.routine(["log"])
        #expect(table.stdout.contains("Logs  logged  1 done, 0 skipped, 0 not scheduled"), "\(table.stdout)")
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        /// Logs made first, each a command line.
        let before: [[String]]
        let arguments: [String]
        let code: String
        let message: String
        /// Whether --force records it anyway.
        let forceable: Bool
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "already done", before: [["done", "FILE", "water", "--date", "2026-11-24"]],
            arguments: ["done", "FILE", "water", "--date", "2026-11-24"], code: "E501",
            message: "'water' (Glass of water) is already done on Tuesday 2026-11-24: at ", forceable: true),
        Refusal(
            name: "done in a run", before: [["run", "FILE", "--date", "2026-11-24", "--answers", "ANSWERS"]],
            arguments: ["done", "FILE", "water", "--date", "2026-11-24"], code: "E501", message: "(in a run)", forceable: true),
        Refusal(
            name: "not scheduled", before: [], arguments: ["done", "FILE", "run", "--date", "2026-11-24"], code: "E502",
            message: "'run' (Run) is not scheduled on Tuesdays, only on Mondays, Wednesdays and Fridays", forceable: true),
        Refusal(
            name: "quota met",
            before: [["done", "FILE", "read", "--date", "2026-11-23"], ["done", "FILE", "read", "--date", "2026-11-24"]],
            arguments: ["done", "FILE", "read", "--date", "2026-11-25"], code: "E503",
            message: "'read' (Read) has met this week's quota: done on 2 days, 2 per week", forceable: true),
        Refusal(
            name: "a question", before: [], arguments: ["done", "FILE", "mood"], code: "E504",
            message: "'mood' is a question: only habits are logged outside a run", forceable: false),
        Refusal(
            name: "unknown", before: [], arguments: ["done", "FILE", "watr"], code: "E505",
            message: "the routine has no node 'watr'; did you mean 'water'?", forceable: false),
        Refusal(
            name: "no value", before: [], arguments: ["done", "FILE", "pushups"], code: "E506",
            message: "'pushups' is a numeric habit: give its value (target 20 reps)", forceable: false),
        Refusal(
            name: "nothing to undo", before: [], arguments: ["done", "FILE", "water", "--undo"], code: "E507",
            message: "no log of 'water' on ", forceable: false),
    ]

    @Test(arguments: refusals)
    func refusalsWriteNothing(_ r: Refusal) throws {
        let f = try Fixture()
        let answers = f.dir.appendingPathComponent("answers").path
        try "d\n20\nd\nd\n1\nd\n".write(toFile: answers, atomically: true, encoding: .utf8)
        for command in r.before {
            let result = try f.routine(command.map { $0 == "ANSWERS" ? answers : $0 })
            #expect(result.status == 0, "\(result.stderr)")
        }
        let before = try f.export()
        let refused = try f.routine(r.arguments)
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("error[\(r.code)]: "), "\(refused.stderr)")
        #expect(refused.stderr.contains(r.message), "\(refused.stderr)")
        #expect(try f.export() == before)
        guard !r.arguments.contains("--undo") else { return }
        let forced = try f.routine(r.arguments + ["--force"])
        #expect((forced.status == 0) == r.forceable, "\(forced.stderr)")
        #expect((try f.export() == before) == !r.forceable)
    }

    @Test func theRunnerPassesOverAHabitALogDid() throws {
        let f = try Fixture()
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-24"]).status == 0)
        // 'b' after the first decision goes back to it; the log before it is not undone.
        let run = try f.routine(["run", "FILE", "--date", "2026-11-24"], stdin: "20\nb\n21\nd\nd\n1\nd\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 1 && lines[1].hasPrefix("1. Glass of water: done at ") && lines[1].hasSuffix(" (logged)"), "\(run.stdout)")
        let runs = try f.runs()
        #expect(runs.count == 2 && runs[0]["kind"] as? String == "log")
        let steps = Self.steps(runs[1])
        #expect(steps.first?["result"] as? String == "not-scheduled" && steps.first?["reason"] as? String == "done-by-log")
        #expect(steps[1]["value"] as? Double == 21)

        let json = try f.routine(["run", "FILE", "--date", "2026-11-24", "--json", "--fresh"], stdin: "d\nd\n1\nd\n")
        let first = json.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(
            first.hasPrefix(
                #"{"event":"habit","step":1,"node":"water","title":"Glass of water","result":"not-scheduled","reason":"done-by-log","doneAt":""#),
            "\(first)")
        // The earlier run did push-ups: passed over too, by that run.
        #expect(
            json.stdout.contains(#""node":"pushups","title":"Push-ups","result":"not-scheduled","target":20,"unit":"reps","reason":"done-by-run""#),
            "\(json.stdout)")
    }

    @Test func withoutAHistoryNothingIsLogged() throws {
        let f = try Fixture()
        let off = try execute(["done", f.file, "water"], environment: ["ROUTINE_HISTORY": "off"])
        #expect(off.status == 74 && off.stdout.isEmpty)
        #expect(off.stderr.contains("error[E508]: nothing can be recorded: the history is off"), "\(off.stderr)")
    }

    @Test func aRunStoppedBeforeALogResumesPastIt() throws {
        let f = try Fixture()
        #expect(try f.routine(["run", "FILE", "--date", "2026-11-24"], stdin: "d\n").status == 3)
        #expect(try f.routine(["done", "FILE", "stretch", "--date", "2026-11-24"]).status == 0)
        let resumed = try f.routine(["run", "FILE", "--date", "2026-11-24", "--resume"], stdin: "20\nd\n1\nd\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("resumed at step 2: 1 steps were recorded from "), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("3. Stretch: done at ") && resumed.stdout.contains(" (logged)"), "\(resumed.stdout)")
        let runs = try f.runs()
        #expect(runs.count == 2 && runs[0]["result"] as? String == "completed")
    }

    @Test func statsAndLogCountALogAsTheHabitDoneButNotAsARun() throws {
        let f = try Fixture()
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-24"]).status == 0)
        let stats = try f.routine(["stats", "FILE", "--since", "2026-11-24", "--until", "2026-11-24", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let habits = try #require(object["habits"] as? [[String: Any]])
        func status(_ id: String) -> String? {
            let habit = habits.first { $0["id"] as? String == id }
            return (habit?["days"] as? [[String: Any]])?.first?["status"] as? String
        }
        #expect(status("water") == "done")
        // A log is no run: a habit behind a question stays unknown, one on every way missed.
        #expect(status("gym") == "unknown")
        #expect(status("stretch") == "missed")
        let table = try f.routine(["stats", "FILE", "--since", "2026-11-24", "--until", "2026-11-24"])
        #expect(table.stdout.hasPrefix("Logs · 2026-11-24 to 2026-11-24 · 1 day, 1 with records"), "\(table.stdout)")
    }
}
