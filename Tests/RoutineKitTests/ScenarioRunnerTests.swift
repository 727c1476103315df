import Testing

@testable import RoutineKit

/// Cases run by the engine: what passes, and where and why what fails does.
struct ScenarioRunnerTests {
    static let routine = load(
        """
        routine "R"
        habit a "A" -> q
        question q "Q?"
          "yes" -> b
          "no" -> end
        habit b "B" target 3 -> c
        habit c "C" on mon

        """
    ).routine

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var lines: String
        /// nil: passes; else the failing line (1-based, the case line is 1) and a part of its message.
        var failure: (line: Int, message: String)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        .init(
            name: "a whole run",
            lines:
                "do d\nexpect habit a done\nexpect question q\nanswer yes\ndo 3\nexpect value b 3\ndo s\nexpect habit c skipped\nexpect end completed"
        ),
        .init(name: "done matches a value", lines: "do d\nanswer 1\ndo 2\nexpect habit b done"),
        .init(name: "back asks again", lines: "do d\nanswer yes\ndo b\nexpect question q\nanswer no\nexpect end completed"),
        .init(name: "back after the end", lines: "do d\nanswer no\ndo b", failure: (4, "already ended")),
        .init(name: "back, and the step waits again", lines: "do d\ndo b\nexpect habit a done", failure: (4, "the run waits at habit 'a'")),
        .init(name: "quit", lines: "do d\ndo q\nexpect end quit\nexpect not-reached b"),
        .init(name: "an end, then nothing more", lines: "do d\nanswer no\nexpect end completed\ndo d", failure: (5, "already ended")),
        .init(name: "a refused answer", lines: "do d\nanswer maybe", failure: (3, "refused 'maybe' at question 'q'")),
        .init(name: "answer at a habit", lines: "answer yes", failure: (2, "'answer' at habit 'a'")),
        .init(name: "do at a question", lines: "do d\ndo d", failure: (3, "'do d' at question 'q'")),
        .init(name: "d at a numeric habit records its target", lines: "do d\nanswer yes\ndo d\nexpect value b 3"),
        .init(
            name: "wrong order", lines: "do d\nexpect question q\nexpect habit a done",
            failure: (3, "expected question q, but the next event is habit a done")),
        .init(name: "eventually passes over", lines: "do d\nanswer yes\ndo 3\ndo d\nexpect eventually end completed"),
        .init(
            name: "not scheduled on a tuesday",
            lines: "weekday tue\ndo d\nanswer yes\ndo 3\nexpect value b 3\nexpect habit c not-scheduled\nexpect end completed"),
        .init(
            name: "scheduled on the default monday", lines: "do d\nanswer yes\ndo 3\nexpect value b 3\nexpect habit c not-scheduled",
            failure: (6, "the run waits at habit 'c'")),
        .init(name: "reached after all", lines: "expect not-reached b\ndo d\nanswer yes", failure: (2, "'b' was reached")),
        .init(name: "ways", lines: "expect ways 2"),
        .init(name: "wrong ways", lines: "expect ways 3", failure: (2, "it has 2")),
        .init(name: "stopping half-way passes", lines: "do d"),
    ]

    @Test(arguments: cases)
    func run(_ c: Case) {
        let text = "case t\n" + c.lines + "\n"
        let file = SourceFile(name: "t.rt.test", text: text)
        let (parsed, diagnostics) = ScenarioParser.parse(file)
        #expect(diagnostics.isEmpty)
        let outcome = ScenarioRunner.run(parsed.cases[0], routine: Self.routine, ways: { try? PathExplorer(Self.routine).summarize().count })
        guard let expected = c.failure else {
            #expect(outcome.failure == nil, "\(outcome.failure?.message ?? "")")
            return
        }
        let failure = try! #require(outcome.failure)
        var table = LineTable(file)
        #expect(table.locate(failure.span!.lowerBound).line == expected.line)
        #expect(failure.message.contains(expected.message), "\(failure.message)")
        #expect(failure.code == .testFailed)
    }

    @Test func aLaterMatchIsPointedOut() throws {
        let (parsed, _) = ScenarioParser.parse(SourceFile(name: "t", text: "case t\ndo d\nexpect question q\n"))
        let failure = try #require(ScenarioRunner.run(parsed.cases[0], routine: Self.routine).failure)
        #expect(
            failure.notes.map(\.message).prefix(3) == [
                "expected: question q", "actual: habit a done", "question q comes later: 'expect eventually' passes over the events before it",
            ])
    }

    @Test func aPassingCaseReachesWhatItAnswered() {
        let (parsed, _) = ScenarioParser.parse(SourceFile(name: "t", text: "case t\nweekday mon\ndo d\nanswer yes\ndo 3\ndo s\n"))
        let outcome = ScenarioRunner.run(parsed.cases[0], routine: Self.routine)
        #expect(outcome.habits == [0, 2, 3])
        #expect(outcome.answers == [OptionRef(node: 1, option: 0)])
        var coverage = ScenarioCoverage(routine: Self.routine)
        coverage.add(outcome)
        #expect(coverage.summary == "answers 1 of 2, habits 3 of 3")
        #expect(coverage.uncovered().map(\.message) == ["no passing case answers 'no' to 'q'"])
    }

    @Test func aRecordedCasePasses() {
        let (text, result) = ScenarioRecorder.record(
            routine: Self.routine, date: CalendarDate("2026-11-23")!, answers: ["d", "yes", "x", "3", "d"], name: "r")
        #expect(result == .completed)
        let (parsed, diagnostics) = ScenarioParser.parse(SourceFile(name: "t", text: text))
        #expect(diagnostics.isEmpty)
        #expect(ScenarioRunner.run(parsed.cases[0], routine: Self.routine).passed)
    }

    @Test func randomFilesNeverStopTheParserOrTheRunner() {
        var random = SeededRandom(state: 7)
        let words = [
            "case", "do", "d", "s", "b", "q", "3", "answer", "yes", "expect", "next", "eventually", "habit", "question",
            "value", "end", "ways", "not-reached", "a", "b", "c", "q", "done", "date", "weekday", "mon", "\"", "#", "\n", "\r\n", "é", "\\",
        ]
        for _ in 0..<500 {
            var text = "case x\n"
            for _ in 0..<(random.next() % 40) {
                text += words[Int(random.next() % UInt64(words.count))] + (random.next() % 3 == 0 ? "\n" : " ")
            }
            let (parsed, _) = ScenarioParser.parse(SourceFile(name: "t", text: text))
            for c in parsed.cases { _ = ScenarioRunner.run(c, routine: Self.routine) }
            _ = ScenarioChecker.check(parsed, against: Self.routine)
        }
    }
}
