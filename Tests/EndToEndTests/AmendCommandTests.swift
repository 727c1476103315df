import Foundation
import Testing

/// `routine amend`: a run's step changed, a log added where no run reached the habit, each
/// undone in turn; `log --date` marks amended steps; export and import carry amendments.
@Suite(.serialized)
struct AmendCommandTests {
    @Test func amendsOfEachKindAndTheirUndo() throws {
        let f = try DoneCommandTests.Fixture()
        // Monday: water done, 18 push-ups, stretch skipped, run done, read done, Good, gym skipped.
        let run = try f.routine(["run", "FILE", "--date", "2026-11-23"], stdin: "d\n18\ns\nd\nd\n1\ns\n")
        #expect(run.status == 0, "\(run.stderr)")
        let original = try f.export()

        let cases: [([String], String)] = [
            (["stretch", "done", "--took", "6m"], "Stretch on Monday 2026-11-23: was skipped, now done in 6m\n"),
            (["pushups", "21"], "Push-ups on Monday 2026-11-23: was 18, now 21 of 20 reps\n"),
            (["water", "skipped"], "Glass of water on Monday 2026-11-23: was done, now skipped\n"),
            (["nap", "done"], "Nap on Monday 2026-11-23: added as a log: done\n"),
        ]
        for (arguments, expected) in cases {
            let result = try f.routine(["amend", "FILE", "2026-11-23"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == expected)
        }
        let runs = try f.runs()
        let steps = DoneCommandTests.steps(runs[0])
        #expect(steps.map { $0["result"] as? String } == ["skipped", "done", "done", "done", "done", "answered", "skipped"])
        #expect(steps[1]["value"] as? Double == 21 && steps[2]["seconds"] as? Double == 360)
        #expect((runs[0]["amendments"] as? [[String: Any]])?.map { $0["step"] as? Int } == [3, 2, 1])
        #expect(runs[1]["kind"] as? String == "log" && (runs[1]["amendments"] as? [[String: Any]])?.first?["added"] as? Bool == true)

        let day = try f.routine(["log", "--date", "2026-11-23"])
        #expect(day.stdout.contains("\n  2. Push-ups: 21 of 20 reps (amended)\n"), "\(day.stdout)")
        #expect(day.stdout.contains("\n  7. Gym: skipped\n"))
        #expect(day.stdout.contains("\n  1. Nap: done (amended)\n"))

        let refused = try f.routine(["amend", "FILE", "2026-11-23", "pushups", "done"])
        #expect(refused.status == 1 && refused.stderr.contains("error[E506]"))
        let question = try f.routine(["amend", "FILE", "2026-11-23", "mood", "done"])
        #expect(question.status == 1 && question.stderr.contains("error[E510]: 'done' is not an answer to 'mood'"), "\(question.stderr)")

        let undone = [
            "Nap on 2026-11-23: the log it added is removed\n", "Glass of water on 2026-11-23: back to done\n",
            "Push-ups on 2026-11-23: back to 18\n", "Stretch on 2026-11-23: back to skipped\n",
        ]
        for expected in undone {
            let result = try f.routine(["amend", "FILE", "--undo"])
            #expect(result.stdout == expected, "\(result.stderr)")
        }
        #expect(try f.export() == original)
        let none = try f.routine(["amend", "FILE", "--undo"])
        #expect(none.status == 1 && none.stderr.contains("error[E507]: no amendment of 'Logs' to undo"))
    }

    /// A day's answer changed afterwards: the statistics replay the day with it (the branch
    /// it rules out not due, the one it opens missed until a log does it), refusals of what
    /// is no option or changes nothing, export and import, and the undo.
    @Test func anAnswerIsAmendedAndTheDayReplayedWithIt() throws {
        let f = try DoneCommandTests.Fixture()
        // Monday: water, 18 push-ups, stretch skipped, run, read, "Good", gym done.
        #expect(try f.routine(["run", "FILE", "--date", "2026-11-23"], stdin: "d\n18\ns\nd\nd\n1\nd\n").status == 0)
        let original = try f.export()
        func statuses() throws -> [String] {
            let csv = try f.routine(["stats", "FILE", "--since", "2026-11-23", "--until", "2026-11-23", "--csv"])
            #expect(csv.status == 0, "\(csv.stderr)")
            return csv.stdout.split(separator: "\n").filter { $0.contains(",gym,") || $0.contains(",nap,") }.map {
                String($0.split(separator: ",")[2])
            }
        }
        func mostChosen() throws -> String? {
            let json = try f.routine(["stats", "FILE", "--until", "2026-11-23", "--question", "mood", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            return object["mostChosen"] as? String
        }
        #expect(try statuses() == ["done", "not-due"])
        #expect(try mostChosen() == "Good")

        let refusals: [([String], String)] = [
            (["mood", "Maybe"], "error[E510]: 'Maybe' is not an answer to 'mood'"),
            (["mood", "3"], "error[E510]: '3' is not an answer to 'mood'"),
            (["mood", "good"], "error[E511]: 'mood' is already answered \"Good\" on Monday 2026-11-23"),
            (["water", "done"], "error[E501]: 'water' (Glass of water) is already done on Monday 2026-11-23"),
        ]
        for (arguments, message) in refusals {
            let refused = try f.routine(["amend", "FILE", "2026-11-23"] + arguments)
            #expect(refused.status == 1 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        let unanswered = try f.routine(["amend", "FILE", "2026-11-24", "mood", "Bad"])
        #expect(unanswered.status == 1 && unanswered.stderr.contains("error[E512]: no run answered 'mood' on Tuesday 2026-11-24"))
        #expect(try f.export() == original, "a refusal records nothing")

        let amended = try f.routine(["amend", "FILE", "2026-11-23", "mood", "2"])
        #expect(amended.stdout == "Mood? on Monday 2026-11-23: was \"Good\", now \"Bad\"\n", "\(amended.stderr)")
        #expect(try statuses() == ["not-due", "missed"], "gym is ruled out, nap opened and not done")
        #expect(try mostChosen() == "Bad")
        #expect(try f.routine(["log", "--date", "2026-11-23"]).stdout.contains("\n  6. Mood? Bad (amended)\n"))
        #expect(try f.routine(["done", "FILE", "nap", "--date", "2026-11-23"]).status == 0)
        #expect(try statuses() == ["not-due", "done"], "a log does the habit the new answer opened")

        // Export carries the answer it held; an import reads it back and replays the same.
        let exported = try f.export()
        #expect(exported.contains(#""before":{"result":"answered","option":"Good","index":1}"#), "\(exported)")
        let file = f.dir.appendingPathComponent("export.jsonl").path
        try exported.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = f.dir.appendingPathComponent("copy.sqlite").path
        #expect(try execute(["history", "import", file, "--history", copy]).status == 0)
        #expect(try execute(["history", "export", "--history", copy]).stdout == exported)

        #expect(try f.routine(["done", "FILE", "nap", "--date", "2026-11-23", "--undo"]).status == 0)
        #expect(try f.routine(["amend", "FILE", "--undo"]).stdout == "Mood? on 2026-11-23: back to \"Good\"\n")
        #expect(try statuses() == ["done", "not-due"])
        #expect(try f.export() == original)
    }

    /// A habit a run passed over because a log had done it is "done earlier" in `log`'s
    /// summary, apart from the habits not scheduled that day (`run` on a Tuesday).
    @Test func aHabitDoneEarlierIsCountedApartFromNotScheduled() throws {
        let f = try DoneCommandTests.Fixture()
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-24"]).status == 0)
        #expect(try f.routine(["run", "FILE", "--date", "2026-11-24"], stdin: "20\nd\n").status == 3)
        let table = try f.routine(["log"]).stdout
        #expect(table.contains("2 done, 0 skipped, 1 not scheduled, 1 done earlier"), "\(table)")
        let day = try f.routine(["log", "--date", "2026-11-24"]).stdout
        #expect(day.contains("  2 done, 0 skipped, 1 not scheduled, 1 done earlier"), "\(day)")
        #expect(day.contains("1. Glass of water: passed over, done by a log"), "\(day)")
    }

    @Test func exportAndImportCarryLogsAndAmendmentsByteForByte() throws {
        let f = try DoneCommandTests.Fixture()
        #expect(try f.routine(["run", "FILE", "--date", "2026-11-23"], stdin: "d\n18\ns\nd\nd\n1\ns\n").status == 0)
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-24"]).status == 0)
        #expect(try f.routine(["run", "FILE", "--date", "2026-11-24"], stdin: "20\nd\n").status == 3)
        #expect(try f.routine(["amend", "FILE", "2026-11-23", "stretch", "done"]).status == 0)
        #expect(try f.routine(["amend", "FILE", "2026-11-24", "gym", "skipped"]).status == 0)
        let exported = try f.export()
        #expect(exported.contains(#""reason":"done-by-log""#) && exported.contains(#""kind":"log""#) && exported.contains(#""amendments":"#))
        let file = f.dir.appendingPathComponent("export.jsonl").path
        try exported.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = f.dir.appendingPathComponent("copy.sqlite").path
        let imported = try execute(["history", "import", file, "--history", copy])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try execute(["history", "export", "--history", copy]).stdout == exported)
        // The copy knows its amendments: the newest one can be undone there too.
        #expect(try execute(["amend", f.file, "--undo", "--history", copy]).stdout == "Gym on 2026-11-24: the log it added is removed\n")
    }
}
