import Foundation
import RoutineKit
import Testing

struct ScriptedRunTests {
    /// The events, one per line. A script is not timed: its `end` says `"elapsedSeconds":null`,
    /// the same in every run.
    func events(_ stdout: String) -> [String] { stdout.split(separator: "\n").map(String.init) }

    @Test func morningAsJSONLines() throws {
        let result = try execute(
            ["run", "routines/morning.rt", "--json", "--date", "2026-11-23"],
            stdin: "done\n\nGreat\ns\n\nd\n\n7\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            events(result.stdout) == [
                #"{"event":"start","routine":"Morning","date":"2026-11-23","weekday":"monday"}"#,
                #"{"event":"habit","step":1,"node":"water","title":"Drink a glass of water","result":"done"}"#,
                #"{"event":"habit","step":2,"node":"stretch","title":"Stretch","result":"done","seconds":300}"#,
                #"{"event":"answer","step":3,"node":"mood","prompt":"How are you feeling today?","option":"Great!","index":1}"#,
                #"{"event":"habit","step":4,"node":"run","title":"Run","result":"skipped","seconds":1800}"#,
                #"{"event":"habit","step":5,"node":"shower","title":"Cold shower","result":"done","seconds":180}"#,
                #"{"event":"habit","step":6,"node":"meditate","title":"Meditate","result":"done","seconds":600}"#,
                #"{"event":"habit","step":7,"node":"plan","title":"Plan the day","result":"done"}"#,
                #"{"event":"habit","step":8,"node":"water2","title":"Drink water","result":"done","value":7,"target":8,"unit":"glasses"}"#,
                #"{"event":"end","result":"completed","reachedEnd":false,"done":6,"skipped":1,"notScheduled":0,"plannedSeconds":1080,"elapsedSeconds":null}"#,
            ])
    }

    @Test func scheduleOnASundayPassesOverWithoutALine() throws {
        let result = try execute(["run", "routines/morning.rt", "--json", "--date", "2026-11-22"], stdin: "\n\n1\n\n\n7\n")
        #expect(result.status == 0)
        let lines = events(result.stdout)
        #expect(lines.contains(#"{"event":"habit","step":4,"node":"run","title":"Run","result":"not-scheduled","seconds":1800}"#))
        #expect(lines.contains(#"{"event":"habit","step":7,"node":"plan","title":"Plan the day","result":"not-scheduled"}"#))
        #expect(lines.last?.contains(#""result":"completed""#) == true)
    }

    @Test func skipTodayReachesEnd() throws {
        let result = try execute(["run", "routines/morning.rt", "--json", "--date", "2026-11-23"], stdin: "\n\nskip today\n")
        #expect(result.status == 0)
        #expect(
            events(result.stdout).last
                == #"{"event":"end","result":"completed","reachedEnd":true,"done":2,"skipped":0,"notScheduled":0,"plannedSeconds":300,"elapsedSeconds":null}"#
        )
    }

    @Test func invalidAnswersAreReportedAndTheNextLineRead() throws {
        let result = try execute(["run", "routines/morning.rt", "--json", "--date", "2026-11-23"], stdin: "\n\n9\nbogus\n4\n")
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                step 3 ('mood'): there is no option 9: choose 1 to 5
                step 3 ('mood'): 'bogus' is not an option: choose 1 to 5, or type an option's text

                """)
        #expect(
            result.stdout.contains(
                #"{"event":"answer","step":3,"node":"mood","prompt":"How are you feeling today?","option":"Skip today","index":4}"#))
    }

    @Test func backUndoesAndIsReported() throws {
        let result = try execute(["run", "routines/morning.rt", "--json", "--date", "2026-11-23"], stdin: "\nback\n\n\n4\n")
        let lines = events(result.stdout)
        #expect(lines[2] == #"{"event":"back","node":"water","step":1}"#)
        #expect(lines.filter { $0.contains(#""node":"water""#) && $0.contains("habit") }.count == 2)
        #expect(result.status == 0)
    }

    /// An empty line, `d` or `done` at a numeric habit records its target, as Enter does at a
    /// terminal, in a file of answers and on a pipe alike.
    @Test(arguments: ["", "d", "done"], [false, true])
    func doneAtANumericHabitRecordsTheTarget(_ line: String, file: Bool) throws {
        // water, stretch, "Okay", walk, plan, then water2.
        let answers = "\n\n2\n\n\n\(line)\n"
        var arguments = ["run", "routines/morning.rt", "--json", "--date", "2026-11-23"]
        if file {
            let path = try temporaryDirectory().appendingPathComponent("answers.txt")
            try answers.write(to: path, atomically: true, encoding: .utf8)
            arguments += ["--answers", path.path]
        }
        let result = try execute(arguments, stdin: file ? "" : answers)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = events(result.stdout)
        #expect(
            lines.contains(
                #"{"event":"habit","step":6,"node":"water2","title":"Drink water","result":"done","value":8,"target":8,"unit":"glasses"}"#),
            "\(lines)")
        #expect(lines.last?.contains(#""result":"completed""#) == true)
    }

    /// A script's summary names the skips and the answers, as a terminal's does; a routine
    /// with no timed habit plans no time, and says nothing of it.
    @Test(arguments: [
        (
            "routines/morning.rt", "\n\n2\ns\n\n7\n",
            ["skipped: Go for a walk\n", "How are you feeling today? Okay\n", "planned 5m · time not measured\n"]
        ),
        ("-", "y\n", ["Q? y\n", "  time not measured\n"]),
    ])
    func theSummaryNamesSkipsAndAnswers(_ file: String, answers: String, lines: [String]) throws {
        let routine = "routine \"R\"\nquestion q \"Q?\"\n  \"y\"\n  \"n\"\n"
        let dir = try temporaryDirectory()
        let answersFile = dir.appendingPathComponent("answers.txt")
        try answers.write(to: answersFile, atomically: true, encoding: .utf8)
        let result = try execute(
            ["run", file, "--no-history", "--date", "2026-11-23", "--answers", answersFile.path], stdin: file == "-" ? routine : "")
        #expect(result.status == 0, "\(result.stderr)")
        for line in lines { #expect(result.stdout.contains(line), "\(result.stdout)") }
        #expect(!result.stdout.contains("planned 0s"), "\(result.stdout)")
    }

    @Test func answersRunningOutExitsThree() throws {
        let result = try execute(["run", "routines/morning.rt", "--json", "--date", "2026-11-23"], stdin: "\n")
        #expect(result.status == 3)
        #expect(events(result.stdout).last?.hasPrefix(#"{"event":"end","result":"incomplete""#) == true)
    }

    @Test func quitExitsZero() throws {
        let result = try execute(["run", "routines/morning.rt", "--date", "2026-11-23"], stdin: "\nq\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("1. Drink a glass of water: done"))
        #expect(result.stdout.contains("Morning: quit"), "the words of the terminal, log and the README")
    }

    @Test func aCompletedRunSaysCompleted() throws {
        let result = try execute(["run", "routines/morning.rt", "--date", "2026-11-23"], stdin: "\n\n4\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Morning: completed"), "\(result.stdout)")
        #expect(!result.stdout.contains("finished"))
    }

    @Test func answersFromAFile() throws {
        let dir = try temporaryDirectory()
        let answers = dir.appendingPathComponent("answers.txt")
        try "\r\n\r\n5\r\n\r\n7\r\n".write(to: answers, atomically: true, encoding: .utf8)
        let result = try execute(["run", "routines/morning.rt", "--answers", answers.path, "--date", "2026-11-23"], stdin: nil)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3. How are you feeling today? Tired"))
        #expect(result.stdout.contains("Drink water: 7 of 8 glasses"))
    }

    static let refusals: [ExpectedFailure] = [
        ExpectedFailure(
            name: "bad date", arguments: ["run", "routines/morning.rt", "--date", "2026-02-30"], status: 64, stderr: "'2026-02-30' is not a date"),
        ExpectedFailure(name: "routine on stdin without answers", arguments: ["run", "-"], status: 64, stderr: "--answers FILE"),
        ExpectedFailure(name: "missing routine", arguments: ["run", "nope.rt"], status: 66, stderr: "cannot read 'nope.rt'"),
        ExpectedFailure(
            name: "missing answers", arguments: ["run", "routines/morning.rt", "--answers", "nope.txt"], status: 66, stderr: "cannot read 'nope.txt'"),
        ExpectedFailure(
            name: "answers in a directory", arguments: ["run", "routines/morning.rt", "--answers", "routines"], status: 66,
            stderr: "cannot read 'routines': it is a directory"),
    ]

    /// A date a few days ahead is recorded with W012; more than a year ahead needs --force.
    @Test func aRunDatedAheadWarnsAndFarAheadIsRefusedUnlessForced() throws {
        let today = CalendarDate.today()
        let soon = today.adding(days: 3).description
        let warned = try execute(["run", "routines/morning.rt", "--json", "--date", soon], stdin: "q\n")
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("warning[W012]: the run is dated \(soon), 3 days after today (\(today))"))
        let far = today.adding(days: 13_000).description
        let refused = try execute(["run", "routines/morning.rt", "--json", "--date", far], stdin: "q\n")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("more than a year ahead: check the year, or pass --force"))
        let forced = try execute(["run", "routines/morning.rt", "--json", "--date", far, "--force"], stdin: "q\n")
        #expect(forced.status == 0)
        #expect(forced.stderr.contains("warning[W012]: the run is dated \(far), 13,000 days after today"))
        #expect(forced.stdout.contains(#""date":"\#(far)""#))
    }

    @Test(arguments: refusals)
    func refuses(_ r: ExpectedFailure) throws {
        try r.check()
    }

    @Test func invalidRoutineIsRefusedWithItsDiagnostics() throws {
        let dir = try temporaryDirectory()
        try "routine \"R\"\nhabit a \"A\" -> a\n".write(to: dir.appendingPathComponent("loop.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["run", "loop.rt"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("loop.rt:2:16: error[E204]: routine has a cycle: 'a' -> 'a'"))
        #expect(result.stdout == "")
    }
}
