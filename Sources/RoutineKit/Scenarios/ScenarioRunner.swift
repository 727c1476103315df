/// An option of a question, by node and option index.
public struct OptionRef: Hashable, Sendable {
    public var node: Int
    public var option: Int

    public init(node: Int, option: Int) {
        self.node = node
        self.option = option
    }
}

/// What one case did: passed or failed, its transcript, and what it reached (for coverage).
public struct ScenarioOutcome: Sendable {
    public var name: String
    /// The case's `case NAME` line.
    public var span: Span
    /// The diagnostic at the first line the run did not satisfy; nil when the case passed.
    public var failure: Diagnostic?
    public var transcript: [TranscriptEvent] = []
    /// Habits asked (done or skipped) in the run as it ended.
    public var habits: Set<Int> = []
    /// Options chosen in the run as it ended.
    public var answers: Set<OptionRef> = []
    /// The node the run waited at when the case's lines ran out; nil once it ended.
    public var waitingAt: Int?
    /// Whether the failure is an `answer` or `do` line the run refused or could not take.
    public var failedAtInput = false

    public var passed: Bool { failure == nil }

    public init(name: String, span: Span, failure: Diagnostic? = nil) {
        self.name = name
        self.span = span
        self.failure = failure
    }
}

/// Runs a case with the run engine, line by line: `answer` and `do` are read by the engine as
/// a script's lines would be; each `expect` is checked against the events that came since.
public enum ScenarioRunner {
    /// How many of the last events a failure shows.
    public static let transcriptLimit = 20

    /// Runs `testCase` on its day. `doneThisWeek` and `doneEarlier` come from the case's own
    /// history (empty without one), as `routine run` takes them from the user's: a habit done
    /// that day by a log or a run is passed over. `ways` counts the routine's ways through,
    /// asked only by `expect ways`.
    public static func run(
        _ testCase: Scenario, routine: Routine, doneThisWeek: [Int: Int] = [:], doneEarlier: [Int: Completion] = [:],
        ways: @escaping () -> BigCount? = { nil }
    ) -> ScenarioOutcome {
        var run = RoutineRun(routine: routine, date: testCase.runDate, doneThisWeek: doneThisWeek, doneEarlier: doneEarlier)
        var state = CaseState(testCase: testCase, routine: routine, ways: ways)
        _ = RunDriver.drive(
            &run, endOfInputResult: .incomplete,
            read: { state.nextInput() },
            emit: { event, run in state.observe(event, run) })
        // Lines after the run ended: expectations about its last events, or input too late.
        _ = state.nextInput()
        state.checkNotReached()
        var outcome = ScenarioOutcome(name: testCase.name, span: testCase.span, failure: state.failure)
        outcome.transcript = state.events
        outcome.waitingAt = state.waiting
        outcome.failedAtInput = state.failedAtInput
        for record in run.records {
            switch record.outcome {
            case .answer(let option): outcome.answers.insert(OptionRef(node: record.node, option: option))
            case .habit(.notScheduled, _): break
            case .habit: outcome.habits.insert(record.node)
            }
        }
        return outcome
    }
}

/// A case part-way through its run.
private struct CaseState {
    let testCase: Scenario
    let routine: Routine
    let ways: () -> BigCount?
    let ids: [String: Int]
    var events: [TranscriptEvent] = []
    /// The first event no `expect` has looked at yet.
    var cursor = 0
    /// The next line of the case to read.
    var line = 0
    /// The node the run waits at, or nil once it has ended.
    var waiting: Int?
    var ended: RunResult?
    /// Nodes that appeared in the run in any way, for `expect not-reached`.
    var reached: Set<Int> = []
    /// The input line being read, so that a refusal is reported at it.
    var inputLine: ScenarioLine?
    var failure: Diagnostic?
    var failedAtInput = false

    init(testCase: Scenario, routine: Routine, ways: @escaping () -> BigCount?) {
        self.testCase = testCase
        self.routine = routine
        self.ways = ways
        ids = routine.indexByID()
    }

    mutating func observe(_ event: RunEvent, _ run: RoutineRun) {
        switch event {
        case .prompt(let node, _, _):
            waiting = node
            reached.insert(node)
            if routine.isQuestion(node) { events.append(.question(routine.id(of: node))) }
        case .record(let record):
            reached.insert(record.node)
            let id = routine.id(of: record.node)
            switch record.outcome {
            case .answer(let option): events.append(.answer(id, option: routine.answer(option, of: record.node)))
            case .habit(.done, .some(let value)): events.append(.value(id, value))
            case .habit(.notScheduled, _):
                events.append(run.passReason(of: record.node).map { .passedOver(id, $0) } ?? .habit(id, .notScheduled))
            case .habit(let result, _): events.append(.habit(id, result))
            }
        case .invalid(let node, let input, let message):
            if failure == nil, let step = inputLine {
                let place = node >= 0 ? " at \(routine.isQuestion(node) ? "question" : "habit") '\(routine.id(of: node))'" : ""
                fail(at: step, "the run refused '\(input)'\(place): \(message)", expected: describe(step), actual: "refused: \(message)")
            }
        case .end(let result):
            // Out of lines (incomplete), the run still stands where it waited.
            if result != .incomplete { waiting = nil }
            ended = result
            if result != .incomplete, result != .interrupted { events.append(.end(result)) }
        case .start, .back, .help, .confirmEnd:
            break
        }
    }

    /// Checks the expectations up to the next input line and returns that input; the end of
    /// input when the case has no more lines or has failed.
    mutating func nextInput() -> RunLine {
        while failure == nil, line < testCase.steps.count {
            let step = testCase.steps[line]
            line += 1
            switch step.kind {
            case .expect(let expected, let eventually): check(expected, eventually: eventually, at: step)
            case .ways(let count): checkWays(count, at: step)
            case .notReached: break
            case .answer(let text):
                guard let node = inputNode(step) else { break }
                guard routine.isQuestion(node) else {
                    fail(
                        at: step, "'answer' at habit '\(routine.id(of: node))'", expected: describe(step),
                        actual: "the run waits at habit '\(routine.id(of: node))', which takes 'do'")
                    break
                }
                return input(text, step)
            case .act(let action):
                guard let node = inputNode(step) else { break }
                if routine.isQuestion(node), action != .back, action != .quit {
                    fail(
                        at: step, "'do \(action.input)' at question '\(routine.id(of: node))'", expected: describe(step),
                        actual: "the run waits at question '\(routine.id(of: node))', which takes 'answer'")
                    break
                }
                return input(action.input, step)
            }
        }
        return failure == nil ? .endOfInput : .interrupted
    }

    private mutating func input(_ text: String, _ step: ScenarioLine) -> RunLine {
        inputLine = step
        // What came before this input is settled; an expectation after it is about what it did.
        cursor = events.count
        return .line(text)
    }

    /// The node waiting for `step`'s input, or nil (and a failure) after the run ended.
    private mutating func inputNode(_ step: ScenarioLine) -> Int? {
        if let waiting, ended == nil { return waiting }
        fail(at: step, "the run has already ended", expected: describe(step), actual: "the run ended: \(ended?.rawValue ?? "completed")")
        return nil
    }

    private mutating func check(_ expected: TranscriptEvent, eventually: Bool, at step: ScenarioLine) {
        // An answer's record echoes the input; expectations are about what follows from it.
        var k = cursor
        while k < events.count {
            if case .answer = events[k] {
                k += 1
                continue
            }
            if expected.matches(events[k]) {
                cursor = k + 1
                return
            }
            if !eventually {
                let later = events[(k + 1)...].contains(where: expected.matches)
                return fail(
                    at: step, "expected \(expected.text), but the next event is \(events[k].text)", expected: expected.text, actual: events[k].text,
                    hint: later ? "\(expected.text) comes later: 'expect eventually' passes over the events before it" : nil)
            }
            k += 1
        }
        let now =
            ended.map { "the run ended \($0.rawValue)" } ?? waiting.map {
                "the run waits at \(routine.isQuestion($0) ? "question" : "habit") '\(routine.id(of: $0))'"
            } ?? "the run has not started"
        let seen = eventually && k > cursor ? "no event since the last step matched, and " : ""
        fail(at: step, "expected \(expected.text), but \(seen)\(now)", expected: expected.text, actual: now)
    }

    private mutating func checkWays(_ count: Int, at step: ScenarioLine) {
        guard let actual = ways() else {
            return fail(
                at: step, "the ways through this routine cannot be counted", expected: "\(count) ways", actual: "too many combinations to count")
        }
        if actual != BigCount(UInt64(count)) {
            fail(at: step, "expected \(count) ways through the routine, but it has \(actual)", expected: "\(count) ways", actual: "\(actual) ways")
        }
    }

    mutating func checkNotReached() {
        guard failure == nil else { return }
        for step in testCase.steps {
            guard case .notReached(let id) = step.kind, let node = ids[id], reached.contains(node) else { continue }
            return fail(at: step, "'\(id)' was reached", expected: "not-reached \(id)", actual: "'\(id)' appeared in the run")
        }
    }

    private func describe(_ step: ScenarioLine) -> String {
        switch step.kind {
        case .answer(let text): "answer \(ScenarioText.argument(text))"
        case .act(let action): "do \(action.input)"
        case .expect(let event, _): event.text
        case .ways(let count): "\(count) ways"
        case .notReached(let id): "not-reached \(id)"
        }
    }

    private mutating func fail(at step: ScenarioLine, _ message: String, expected: String, actual: String, hint: String? = nil) {
        guard failure == nil else { return }
        switch step.kind {
        case .answer, .act: failedAtInput = true
        default: break
        }
        failure = .testFailed(message, at: step.span, expected: expected, actual: actual, transcript: events)
        if let hint { failure?.notes.insert(Note(hint), at: 2) }
    }
}
