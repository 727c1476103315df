import Testing

@testable import RoutineKit

struct RunSemanticsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        var date = "2026-11-23"  // a Monday
        let answers: [String]
        /// Node IDs in run order, with `:result` for habits not simply done and `=option` for answers.
        let expected: [String]
        var result: RunResult = .completed
        var testDescription: String { name }
    }

    static let r = "routine \"R\"\n"

    static let cases: [Case] = [
        Case(
            name: "diamond", source: r + "habit a \"A\" -> b, c\nhabit b \"B\" -> d\nhabit c \"C\" -> d\nhabit d \"D\"",
            answers: ["", "", "", ""], expected: ["a", "b", "c", "d"]),
        Case(
            name: "two starts converge", source: r + "start -> x, y\nhabit x \"X\" -> w\nhabit y \"Y\" -> w\nhabit w \"W\"",
            answers: ["d", "d", "d"], expected: ["x", "y", "w"]),
        Case(
            name: "gather after the chosen branch",
            source: r
                + "question q \"Q\"\n \"left\" -> l1\n \"right\" -> r1\n then -> g\nhabit l1 \"L1\" -> l2\nhabit l2 \"L2\"\nhabit r1 \"R1\"\nhabit g \"G\"",
            answers: ["left", "", "", ""], expected: ["q=left", "l1", "l2", "g"]),
        Case(
            name: "gather waits for a branch that leads to it",
            source: r + "question q \"Q\"\n \"a\" -> x\n \"b\"\n -> g\nhabit x \"X\" -> y\nhabit y \"Y\" -> g\nhabit g \"G\"",
            answers: ["1", "", "", ""], expected: ["q=a", "x", "y", "g"]),
        Case(
            name: "option without arrow goes to the gather", source: r + "question q \"Q\"\n \"a\" -> x\n \"b\"\n -> g\nhabit x \"X\"\nhabit g \"G\"",
            answers: ["2", ""], expected: ["q=b", "g"]),
        Case(
            name: "end finishes at once",
            source: r + "start -> q, z\nquestion q \"Q\"\n \"stop\" -> end\n \"go\" -> a\n -> g\nhabit a \"A\"\nhabit g \"G\"\nhabit z \"Z\"",
            answers: ["stop"], expected: ["q=stop"]),
        Case(
            name: "several targets run in order", source: r + "question q \"Q\"\n \"both\" -> b, a\n \"none\"\nhabit a \"A\"\nhabit b \"B\"",
            answers: ["both", "", ""], expected: ["q=both", "b", "a"]),
        Case(
            name: "skip continues the path", source: r + "habit a \"A\" -> b\nhabit b \"B\"",
            answers: ["s", "skip"], expected: ["a:skipped", "b:skipped"]),
        Case(
            name: "back over a question",
            source: r + "habit a \"A\" -> q\nquestion q \"Q\"\n \"left\" -> l\n \"right\" -> rr\nhabit l \"L\"\nhabit rr \"RR\"",
            answers: ["", "left", "back", "back", "", "right", ""], expected: ["a", "q=right", "rr"]),
        Case(
            name: "back at the start is refused", source: r + "habit a \"A\"",
            answers: ["b", "d"], expected: ["a"]),
        Case(
            name: "not scheduled today passes over without a line", source: r + "habit a \"A\" on tue -> b\nhabit b \"B\" on mon",
            answers: ["d"], expected: ["a:not-scheduled", "b"]),
        Case(
            name: "scheduled on the given date", source: r + "habit a \"A\" on tue -> b\nhabit b \"B\" on weekends",
            date: "2026-11-24", answers: ["d"], expected: ["a", "b:not-scheduled"]),
        Case(name: "numeric value", source: r + "habit w \"Water\" target 8 glasses", answers: ["lots", "7.5"], expected: ["w=7.5"]),
        // Done as planned, as Enter alone at a terminal: the target.
        Case(name: "numeric target by an empty line", source: r + "habit w \"Water\" target 8 glasses", answers: [""], expected: ["w=8"]),
        Case(name: "numeric target by d", source: r + "habit w \"Water\" target 8 glasses", answers: [" done "], expected: ["w=8"]),
        Case(
            name: "invalid answers are asked again", source: r + "question q \"Q\"\n \"Great\" -> end\n \"Grim\" -> end",
            answers: ["0", "3", "gr", "x", "gre"], expected: ["q=Great"]),
        Case(name: "answers run out", source: r + "habit a \"A\" -> b\nhabit b \"B\"", answers: ["d"], expected: ["a"], result: .incomplete),
        Case(name: "quit", source: r + "habit a \"A\" -> b\nhabit b \"B\"", answers: ["d", "q"], expected: ["a"], result: .quit),
        Case(
            name: "skipped branch targets never run",
            source: r + "question q \"Q\"\n \"a\" -> x\n \"b\" -> y\nhabit x \"X\" -> z\nhabit y \"Y\" -> z\nhabit z \"Z\"",
            answers: ["b", "", ""], expected: ["q=b", "y", "z"]),
    ]

    static func play(_ c: Case) -> ([String], RunResult, [RunEvent]) {
        let loaded = load(c.source)
        precondition(!loaded.hasErrors, "\(loaded.diagnostics)")
        var run = RoutineRun(routine: loaded.routine, date: CalendarDate(c.date)!)
        var lines = c.answers.makeIterator()
        var events: [RunEvent] = []
        let result = RunDriver.drive(&run, read: { lines.next().map(RunLine.line) ?? .endOfInput }, emit: { e, _ in events.append(e) })
        let nodes = run.routine.nodes
        let trace = run.records.map { record -> String in
            let id = nodes[record.node].id
            switch record.outcome {
            case .answer(let k): return "\(id)=\(nodes[record.node].options[k].text)"
            case .habit(.done, let value?): return "\(id)=\(NumberText.format(value))"
            case .habit(.done, nil): return id
            case .habit(let other, _): return "\(id):\(other.rawValue)"
            }
        }
        return (trace, result, events)
    }

    @Test(arguments: cases)
    func runs(_ c: Case) {
        let (trace, result, _) = Self.play(c)
        #expect(trace == c.expected)
        #expect(result == c.result)
    }

    @Test func invalidAnswersSayWhy() {
        let c = Self.cases.first { $0.name == "invalid answers are asked again" }!
        let messages = Self.play(c).2.compactMap { event -> String? in
            if case .invalid(_, _, let message) = event { return message }
            return nil
        }
        #expect(
            messages == [
                "there is no option 0: choose 1 to 2",
                "there is no option 3: choose 1 to 2",
                "'gr' could be 'Great' or 'Grim': type more of it, or its number",
                "'x' is not an option: choose 1 to 2, or type an option's text",
            ])
    }

    @Test func sameAnswersGiveTheSameRun() {
        let c = Self.cases[2]
        #expect(Self.play(c).0 == Self.play(c).0)
    }

    @Test func largeRoutineRunsInLinearTime() {
        // 100,000 nodes, every third a question, arrows forward only, with converging paths.
        let n = 100_000
        var nodes: [RoutineNode] = []
        nodes.reserveCapacity(n)
        for i in 0..<n {
            let a = min(n - 1, i + 1)
            let b = min(n - 1, i + 2 + i % 7)
            let next: [Edge] = i == n - 1 ? [] : [Edge(.node(a), span: Span(at: 0))]
            if i % 3 == 0, i < n - 3 {
                let options = [QuestionOption(text: "x", next: [Edge(.node(b), span: Span(at: 0))]), QuestionOption(text: "y")]
                nodes.append(RoutineNode(kind: .question, id: "n\(i)", title: "Q", options: options, next: next))
            } else {
                nodes.append(RoutineNode(kind: .habit, id: "n\(i)", title: "H", next: b == a ? next : next + [Edge(.node(b), span: Span(at: 0))]))
            }
        }
        var run = RoutineRun(routine: Routine(name: "Big", nodes: nodes), date: CalendarDate("2026-11-23")!)
        var steps = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            while let node = run.current {
                run.decide(run.routine.nodes[node].isQuestion ? .option(0) : .done(value: nil))
                steps += 1
            }
        }
        #expect(steps == n)
        #expect(elapsed < .seconds(10))
    }
}

/// A typed number is a position, whatever the options read: what W011 warns about.
struct NumberedAnswerTests {
    static let question = load("routine \"R\"\nquestion q \"Q\"\n  \"0\" -> end\n  \"2\" -> end\n  \"1\" -> end\n  \"b\" -> end\n")

    @Test(arguments: [("1", 0), ("3", 2), ("b", 3)])
    func picks(_ typed: String, _ position: Int) {
        let node = Self.question.routine.nodes[0]
        #expect(AnswerInterpreter.interpret(typed, at: node) == .decision(.option(position)))
    }

    @Test func checkWarnsOnce() {
        let warnings = Self.question.diagnostics.filter { $0.code == .misleadingNumbers }
        #expect(warnings.map(\.message) == ["the options of question 'q' are numbers in another order: typing '1' picks the option \"0\""])
    }

    @Test func numbersInTheirOwnPlacesAreFine() {
        let loaded = load("routine \"R\"\nquestion q \"Q\"\n  \"1\" -> end\n  \"2\" -> end\n  \"10\" -> end\n")
        #expect(!loaded.diagnostics.contains { $0.code == .misleadingNumbers })
    }
}

struct HumanDurationTests {
    @Test func drawingsWriteDurationsAsPeopleReadThem() {
        let loaded = load("routine \"R\"\nhabit a \"A\"\n  for 1h30m\nhabit b \"B\"\n  for 2h5s\n")
        let dot = DOTWriter.write(GraphView(loaded.routine, showProblems: false))
        #expect(dot.contains(#"label="A\n1h 30m""#))
        #expect(dot.contains(#"label="B\n2h 5s""#))
        #expect(MermaidWriter.write(GraphView(loaded.routine, showProblems: false)).contains("A<br>1h 30m"))
    }

    /// A typed start matches past an option's leading emoji and punctuation; exact text and
    /// positions are as before.
    @Test(arguments: [("great", 0), ("GRE", 0), ("ok", 1), ("tired", 2), ("- tired", 2), ("😀 great!", 0), ("2", 1)])
    func emojiPrefixesAreLookedPast(_ typed: String, _ position: Int) {
        let node = RoutineNode(kind: .question, id: "q", title: "How?", options: ["😀 Great!", "😐 Okay", "- Tired"].map { QuestionOption(text: $0) })
        #expect(AnswerInterpreter.interpret(typed, at: node) == .decision(.option(position)), "\(typed)")
    }
}

extension RunSemanticsTests {
    /// A habit done by a log while the run waited at an earlier step is passed over when the
    /// run reaches it, with the log's time, and back over it leaves it passed over.
    @Test func aHabitDoneMeanwhileIsPassedOverWhenReached() {
        let loaded = load(Self.r + "habit a \"A\" -> b\nhabit b \"B\" -> c\nhabit c \"C\"")
        var run = RoutineRun(routine: loaded.routine, date: CalendarDate("2026-11-23")!)
        var lines = ["", "b", "", ""].makeIterator()
        var asked: [Int] = []
        let logged = Completion(source: .log, time: "07:12")
        let result = RunDriver.drive(
            &run, read: { lines.next().map(RunLine.line) ?? .endOfInput },
            emit: { event, _ in if case .prompt(let node, _, false) = event { asked.append(node) } },
            doneMeanwhile: { $0 == 1 ? logged : nil })
        #expect(result == .completed)
        #expect(asked == [0, 2, 0, 2])
        #expect(run.records.map(\.node) == [0, 1, 2])
        guard case .habit(.notScheduled, nil) = run.records[1].outcome else {
            Issue.record("b is recorded as \(run.records[1].outcome)")
            return
        }
        #expect(run.passReason(of: 1) == .doneByLog)
        #expect(run.doneEarlier[1] == logged)
    }
}
