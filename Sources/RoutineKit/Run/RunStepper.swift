/// The run engine one answer at a time: what ``RunDriver/drive(_:endOfInputResult:interactive:read:emit:doneMeanwhile:)``
/// does in a loop, for a front end that gets its answers one request at a time (the studio).
/// Both go through here, so a run in the browser and one at a terminal take the same steps.
public struct RunStepper: Sendable {
    /// What the run waits for.
    public enum Waiting: Hashable, Sendable {
        /// An answer at this node.
        case node(Int)
        /// "That's the end": Enter finishes, `b` goes back (interactive runs only).
        case confirmEnd
        /// The run ended with this result.
        case finished(RunResult)
    }

    public private(set) var run: RoutineRun
    public private(set) var waiting: Waiting = .finished(.completed)
    /// A person answers: the end is confirmed.
    public let interactive: Bool
    private let endOfInputResult: RunResult
    /// The node just asked, when its answer was refused: it is asked again, not passed over.
    private var again = false
    private var asked: (node: Int, facts: AskedNode)?

    public init(_ run: RoutineRun, interactive: Bool, endOfInputResult: RunResult = .incomplete) {
        self.run = run
        self.interactive = interactive
        self.endOfInputResult = endOfInputResult
    }

    public var result: RunResult? {
        if case .finished(let result) = waiting { return result }
        return nil
    }

    /// Announces the run and the records it starts with, then goes to the first question.
    public mutating func begin(emit: (RunEvent, RoutineRun) -> Void, doneMeanwhile: (Int) -> Completion? = { _ in nil }) {
        emit(.start, run)
        for record in run.records { emit(.record(record), run) }
        proceed(emit, doneMeanwhile)
    }

    /// Takes one read (an answer, the end of input, an interrupt) and goes on to the next question.
    public mutating func take(_ line: RunLine, emit: (RunEvent, RoutineRun) -> Void, doneMeanwhile: (Int) -> Completion? = { _ in nil }) {
        switch waiting {
        case .finished: return
        case .confirmEnd: takeAtEnd(line, emit, doneMeanwhile)
        case .node(let node): take(line, at: node, emit, doneMeanwhile)
        }
    }

    /// Interprets `line` at `node` without taking it: what the answer would do.
    public func interpret(_ text: String, at node: Int) -> RunInput {
        let facts = asked?.node == node ? asked!.facts : AskedNode(node, of: run.routine)
        return AnswerInterpreter.interpret(text, at: facts)
    }

    /// Ends the run with `result` now (a front end that loses its person).
    public mutating func stop(_ result: RunResult, emit: (RunEvent, RoutineRun) -> Void) {
        guard self.result == nil else { return }
        finish(result, emit)
    }

    private mutating func take(_ read: RunLine, at node: Int, _ emit: (RunEvent, RoutineRun) -> Void, _ doneMeanwhile: (Int) -> Completion?) {
        let text: String
        switch read {
        case .line(let line): text = line
        case .endOfInput: return finish(endOfInputResult, emit)
        case .interrupted: return finish(.interrupted, emit)
        case .tooLong(let limit):
            emit(.invalid(node: node, input: "", message: "an answer is at most \(limit) bytes: this line is longer"), run)
            again = true
            return proceed(emit, doneMeanwhile)
        }
        if asked?.node != node { asked = (node, AskedNode(node, of: run.routine)) }
        switch interpret(text, at: node) {
        case .decision(let decision):
            let before = run.records.count
            run.decide(decision)
            for record in run.records[before...] { emit(.record(record), run) }
        case .back:
            if let undone = run.back() {
                emit(.back(node: undone), run)
            } else {
                emit(.invalid(node: node, input: text, message: "nothing to go back to: this is the first step"), run)
                again = true
            }
        case .quit:
            return finish(.quit, emit)
        case .help:
            emit(.help(node: node), run)
            again = true
        case .invalid(let message):
            emit(.invalid(node: node, input: text, message: message), run)
            again = true
        }
        proceed(emit, doneMeanwhile)
    }

    private mutating func takeAtEnd(_ read: RunLine, _ emit: (RunEvent, RoutineRun) -> Void, _ doneMeanwhile: (Int) -> Completion?) {
        switch read {
        case .line(let line):
            switch line.trimmingWhitespace().lowercased() {
            case "", "d", "done", "y", "yes", "q", "quit": return finish(.completed, emit)
            case "b", "back":
                if let undone = run.back() { emit(.back(node: undone), run) }
                return proceed(emit, doneMeanwhile)
            default:
                emit(.invalid(node: -1, input: line, message: "Enter to finish, b to go back"), run)
            }
        case .endOfInput: return finish(.completed, emit)
        case .interrupted: return finish(.interrupted, emit)
        case .tooLong: emit(.invalid(node: -1, input: "", message: "Enter to finish, b to go back"), run)
        }
        emit(.confirmEnd, run)
    }

    /// Passes over what a log or another run did meanwhile, then asks the next question, asks
    /// to confirm the end, or finishes.
    private mutating func proceed(_ emit: (RunEvent, RoutineRun) -> Void, _ doneMeanwhile: (Int) -> Completion?) {
        while true {
            guard let node = run.current else {
                guard interactive, run.canGoBack else { return finish(.completed, emit) }
                waiting = .confirmEnd
                emit(.confirmEnd, run)
                return
            }
            if !again, asked?.node != node, !run.routine.isQuestion(node), let completion = doneMeanwhile(node) {
                let before = run.records.count
                run.passOver(doneMeanwhile: completion)
                for record in run.records[before...] { emit(.record(record), run) }
                continue
            }
            waiting = .node(node)
            emit(.prompt(node: node, step: run.step, again: again), run)
            again = false
            return
        }
    }

    private mutating func finish(_ result: RunResult, _ emit: (RunEvent, RoutineRun) -> Void) {
        waiting = .finished(result)
        emit(.end(result), run)
    }
}
