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
        #expect(question.status == 1 && question.stderr.contains("error[E504]"))

        let undone = ["Nap on 2026-11-23: the log it added is removed\n", "Glass of water on 2026-11-23: back to done\n",
                      "Push-ups on 2026-11-23: back to 18\n", "Stretch on 2026-11-23: back to skipped\n"]
        for expected in undone {
            let result = try f.routine(["amend", "FILE", "--undo"])
            #expect(result.stdout == expected, "\(result.stderr)")
        }
        #expect(try f.export() == original)
        let none = try f.routine(["amend", "FILE", "--undo"])
        #expect(none.status == 1 && none.stderr.contains("error[E507]: no amendment of 'Logs' to undo"))
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
