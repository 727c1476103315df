import Foundation
import Testing

/// `routine test`: cases that pass and fail, how failures are shown, coverage, recording, and
/// cases that load a history.
struct TestCommandTests {
    static let routine = """
        routine "Gym week"
        habit warmup "Warm up" -> mood
        question mood "How do you feel?"
          "Strong" -> lift
          "Fine"   -> walk
          "Sore"   -> end
        habit lift "Lift" 2 per week -> stretch
        habit walk "Walk" for 20m -> stretch
        habit stretch "Stretch" target 10 minutes

        """

    static let passing = """
        # Two cases that pass.
        case strong on a monday
          date 2026-11-23
          do d
          expect habit warmup done
          expect question mood
          answer Strong
          do d
          expect habit lift done
          do 10
          expect value stretch 10
          expect end completed
          expect not-reached walk

        case fine
          do s
          expect eventually question mood
          answer fi
          do d
          expect habit walk done

        """

    /// A folder holding the routine, its test file and anything else given.
    func folder(_ tests: String, extra: [String: String] = [:]) throws -> URL {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("gym.rt"), atomically: true, encoding: .utf8)
        try tests.write(to: dir.appendingPathComponent("gym.rt.test"), atomically: true, encoding: .utf8)
        for (name, text) in extra { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    /// A test file reads its lines as a scripted run does: an option by its text past an
    /// emoji, `do d` at a numeric habit for its target.
    @Test func aTestFileReadsAnswersAsTheRunDoes() throws {
        let dir = try temporaryDirectory()
        try "routine \"R\"\nquestion night \"Slept?\"\n  \"😀 Well\"\n  \"😴 Badly\"\nthen -> water\nhabit water \"Water\" target 8 glasses\n"
            .write(to: dir.appendingPathComponent("r.rt"), atomically: true, encoding: .utf8)
        try "case badly\n  answer Badly\n  do d\n  expect value water 8\n  expect end completed\n"
            .write(to: dir.appendingPathComponent("r.rt.test"), atomically: true, encoding: .utf8)
        let result = try execute(["test"], in: dir)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "PASS r.rt.test: badly\n1 passed, 0 failed\n")
        let scripted = try execute(["run", "r.rt", "--no-history", "--json"], stdin: "Badly\nd\n", in: dir)
        #expect(scripted.stdout.contains(#""option":"😴 Badly""#) && scripted.stdout.contains(#""value":8"#), "\(scripted.stdout)")
    }

    @Test func passingCasesFoundInTheCurrentFolder() throws {
        let dir = try folder(Self.passing)
        let result = try execute(["test"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout == "PASS gym.rt.test: strong on a monday\nPASS gym.rt.test: fine\n2 passed, 0 failed\n")
        #expect(result.stderr == "")
    }

    /// A named pipe with a test file's name is not a test file: opening it would wait for a
    /// writer forever. `timeout` bounds the test should that come back.
    @Test(arguments: [".", "sub"])
    func aNamedPipeCalledLikeATestFileIsPassedOver(_ searched: String) throws {
        let dir = try folder(Self.passing)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["x.rt.test", "sub/y.yaml.test"] { #expect(mkfifo(dir.appendingPathComponent(name).path, 0o644) == 0) }
        try FileManager.default.copyItem(at: dir.appendingPathComponent("gym.rt.test"), to: dir.appendingPathComponent("sub/gym.rt.test"))
        try FileManager.default.copyItem(at: dir.appendingPathComponent("gym.rt"), to: dir.appendingPathComponent("sub/gym.rt"))
        let result = try shell("timeout 120 \"$ROUTINE\" test \(searched) </dev/null", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(searched == "." ? "4 passed, 0 failed\n" : "2 passed, 0 failed\n"), "\(result.stdout)")
    }

    static let failing =
        Self.passing + """
            case sore goes on
              do d
              answer Sore
              expect habit stretch done

            """

    @Test func aFailureIsADiagnosticAtItsLine() throws {
        let dir = try folder(Self.failing)
        let result = try execute(["test", "gym.rt.test"], in: dir)
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL gym.rt.test: sore goes on\n"))
        #expect(result.stdout.contains("gym.rt.test:24:3: error[E407]: expected habit stretch done, but the next event is end completed\n"))
        #expect(result.stdout.contains("24 |   expect habit stretch done\n"))
        #expect(result.stdout.contains("= note: expected: habit stretch done\n"))
        #expect(result.stdout.contains("= note: actual: end completed\n"))
        #expect(result.stdout.contains("= note: transcript so far:\n"))
        #expect(result.stdout.contains("= note:   answer Sore\n"))
        #expect(result.stdout.hasSuffix("\n2 passed, 1 failed\n"))
    }

    @Test func shortFailure() throws {
        let dir = try folder(Self.failing)
        let result = try execute(["test", "--format", "short"], in: dir)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                """
                FAIL gym.rt.test: sore goes on
                gym.rt.test:24:3: error[E407]: expected habit stretch done, but the next event is end completed
                gym.rt.test:24:3: note: expected: habit stretch done
                gym.rt.test:24:3: note: actual: end completed
                gym.rt.test:24:3: note: transcript so far:
                gym.rt.test:24:3: note:   habit warmup done
                gym.rt.test:24:3: note:   question mood
                gym.rt.test:24:3: note:   answer Sore
                gym.rt.test:24:3: note:   end completed

                """))
    }

    @Test func jsonGivesOneObjectPerCase() throws {
        let dir = try folder(Self.failing)
        let result = try execute(["test", "--format", "json"], in: dir)
        #expect(result.status == 1)
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["result"] as? String } == ["pass", "pass", "fail"])
        #expect(objects.map { $0["case"] as? String } == ["strong on a monday", "fine", "sore goes on"])
        let failure = try #require(objects[2]["failure"] as? [String: Any])
        #expect(failure["code"] as? String == "E407")
        #expect(failure["line"] as? Int == 24)
        #expect(objects[2]["transcript"] as? [String] == ["habit warmup done", "question mood", "answer Sore", "end completed"])
    }

    @Test func junitForCI() throws {
        let dir = try folder(Self.failing)
        let result = try execute(["test", "--format", "junit"], in: dir)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"routine test\" tests=\"3\" failures=\"1\" errors=\"0\">\n"))
        #expect(result.stdout.contains("<testcase classname=\"gym.rt.test\" name=\"fine\"/>"))
        #expect(
            result.stdout.contains(
                "<failure message=\"expected habit stretch done, but the next event is end completed\" type=\"E407\">gym.rt.test:24:3: error[E407]"))
    }

    @Test func junitCoverageFailsWithStrict() throws {
        let dir = try folder(Self.passing)
        let result = try execute(["test", "--format", "junit", "--coverage", "--strict"], in: dir)
        #expect(result.status == 1)
        #expect(result.stdout.contains("<testsuites name=\"routine test\" tests=\"3\" failures=\"1\" errors=\"0\">"))
        #expect(
            result.stdout.contains(
                """
                    <testcase classname="coverage" name="gym.rt: answers 2 of 3, habits 4 of 4">
                      <failure message="not covered: answers 2 of 3, habits 4 of 4" type="W013">gym.rt:6:3: warning[W013]: no passing case answers &apos;Sore&apos; to &apos;mood&apos;
                </failure>
                """))
        let lenient = try execute(["test", "--format", "junit", "--coverage"], in: dir)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("<testcase classname=\"coverage\" name=\"gym.rt: answers 2 of 3, habits 4 of 4\"/>"))
    }

    @Test func aTestFileThatDoesNotParseExits65() throws {
        let dir = try folder("case a\n  expekt habit warmup done\n")
        let result = try execute(["test"], in: dir)
        #expect(result.status == 65)
        #expect(result.stderr.contains("gym.rt.test:2:3: error[E401]: unknown line 'expekt'"))
        #expect(result.stdout == "0 passed, 0 failed\n")
    }

    @Test func anAnswerTheQuestionDoesNotHaveFails() throws {
        let dir = try folder("case a\n  do d\n  answer Tired\n")
        let result = try execute(["test", "--format", "short"], in: dir)
        // 'Tired' is no option of any question: the file names what the routine lacks.
        #expect(result.status == 65)
        #expect(result.stderr.contains("gym.rt.test:3:10: error[E405]: no question of the routine has an option 'Tired'"))
    }

    @Test func coverageListsTheUntestedOption() throws {
        let dir = try folder(Self.passing)
        let result = try execute(["test", "--coverage"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains("coverage of gym.rt: answers 2 of 3, habits 4 of 4\n"))
        #expect(result.stdout.contains("gym.rt:6:3: warning[W013]: no passing case answers 'Sore' to 'mood'\n"))
        let strict = try execute(["test", "--coverage", "--strict"], in: dir)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasSuffix("coverage: 1 not covered, which --strict fails\n2 passed, 0 failed\n"))
    }

    @Test func aFailingCaseCoversNothing() throws {
        let dir = try folder(Self.failing)
        let result = try execute(["test", "--coverage"], in: dir)
        #expect(result.stdout.contains("answers 2 of 3"))
    }

    @Test func theExampleRoutinesAreCoveredWhole() throws {
        let result = try execute(["test", "--coverage", "--strict", "routines/"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("FAIL"))
        #expect(result.stdout.contains("coverage of routines/morning.rt: answers 5 of 5, habits 9 of 9\n"))
    }

    @Test func aRecordedCasePasses() throws {
        let dir = try folder("", extra: ["answers.txt": "d\nStrong\nd\nnot a number\n12\n"])
        try FileManager.default.removeItem(at: dir.appendingPathComponent("gym.rt.test"))
        let recorded = try execute(["test", "--record", "gym.rt.test", "--answers", "answers.txt", "--date", "2026-11-23"], in: dir)
        #expect(recorded.status == 0)
        #expect(recorded.stderr == "recorded case 'recorded 2026-11-23' in 'gym.rt.test' (completed)\n")
        let again = try execute(["test", "--record", "gym.rt.test", "--answers", "answers.txt", "--date", "2026-11-23"], in: dir)
        #expect(again.stderr.contains("'recorded 2026-11-23 2'"))
        let text = try String(contentsOf: dir.appendingPathComponent("gym.rt.test"), encoding: .utf8)
        #expect(text.hasPrefix("case recorded 2026-11-23\ndate 2026-11-23\ndo d\nexpect habit warmup done\nexpect question mood\nanswer Strong\n"))
        #expect(text.contains("do 12\nexpect value stretch 12\nexpect end completed\n"))
        let result = try execute(["test", "--coverage"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    /// A history with 'lift' done on Monday and Tuesday of the week of 2026-11-23, exported.
    func exportWithQuotaMet(in dir: URL) throws {
        let history = freshHistoryPath()
        for day in ["2026-11-23", "2026-11-24"] {
            let run = try execute(["run", "gym.rt", "--history", history, "--date", day], stdin: "d\nStrong\nd\n10\n", in: dir)
            #expect(run.status == 0)
        }
        let export = try execute(["history", "export", "--history", history, "-o", "week.jsonl"], in: dir)
        #expect(export.status == 0)
    }

    @Test func quotaThroughHistory() throws {
        let dir = try folder(
            """
            case quota met: lift is passed over
              date 2026-11-25
              history week.jsonl
              do d
              answer Strong
              expect habit lift not-scheduled

            case the next week it is due again
              date 2026-11-30
              history week.jsonl
              do d
              answer Strong
              do d
              expect habit lift done

            case without the history it is due
              date 2026-11-25
              do d
              answer Strong
              do d
              expect habit lift done

            """)
        try exportWithQuotaMet(in: dir)
        let result = try execute(["test"], in: dir)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("3 passed, 0 failed\n"))
    }

    /// A habit logged with `routine done` on the case's day is passed over, as `routine run`
    /// passes it over; without the history it is due.
    @Test func loggedTodayThroughHistory() throws {
        let routine = "routine \"Day\"\nhabit stretch \"Stretch\" -> water\nhabit water \"Water\"\n"
        let cases = """
            case water was logged that day
              date 2026-11-23
              history day.jsonl
              do d
              expect habit stretch done
              expect habit water not-scheduled
              expect end completed

            case it says why
              date 2026-11-23
              history day.jsonl
              do d
              expect eventually habit water not-scheduled done-by-log

            case not by a run
              date 2026-11-23
              history day.jsonl
              do d
              expect eventually habit water not-scheduled done-by-run

            case the day before it is due
              date 2026-11-22
              history day.jsonl
              do d
              do d
              expect habit water done

            case without the history
              date 2026-11-23
              do d
              expect habit stretch done
              expect habit water not-scheduled

            """
        let dir = try folder("", extra: ["day.rt": routine, "day.rt.test": cases])
        let history = freshHistoryPath()
        let logged = try execute(["done", "day.rt", "water", "--date", "2026-11-23", "--history", history], in: dir)
        #expect(logged.status == 0, "\(logged.stderr)")
        let export = try execute(["history", "export", "--history", history, "-o", "day.jsonl"], in: dir)
        #expect(export.status == 0)
        let result = try execute(["test", "--format", "short", "day.rt.test"], in: dir)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix("PASS day.rt.test: water was logged that day\nPASS day.rt.test: it says why\nFAIL day.rt.test: not by a run\n"),
            "\(result.stdout)")
        #expect(result.stdout.contains("expected habit water not-scheduled done-by-run, but no event since the last step matched"))
        #expect(result.stdout.contains("actual: the run ended completed"))
        #expect(result.stdout.contains("PASS day.rt.test: the day before it is due\nFAIL day.rt.test: without the history\n"))
        #expect(result.stdout.contains("day.rt.test:32:3: error[E407]"))
        #expect(result.stdout.contains("expected habit water not-scheduled, but the run waits at habit 'water'"))
        #expect(result.stdout.hasSuffix("3 passed, 2 failed\n"))
    }

    @Test func aMissingHistoryFailsItsCase() throws {
        let dir = try folder("case a\n  history gone.jsonl\n  do d\n")
        let result = try execute(["test", "--format", "short"], in: dir)
        #expect(result.status == 1)
        #expect(result.stdout.contains("gym.rt.test:2:3: error[E406]: cannot test 'gone.jsonl'"))
    }
}
