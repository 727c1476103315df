/// One read from the person or the script.
public enum RunLine: Sendable {
    case line(String)
    case endOfInput
    case interrupted
    /// A line longer than the given number of bytes, refused without being kept.
    case tooLong(Int)
}

/// The loop shared by the terminal and scripted runs: ask, read, interpret, apply, report.
public enum RunDriver {
    /// Runs `run` to its end. `read` supplies answers; `emit` receives every event in order.
    /// At the end of input the result is `endOfInputResult`: `.incomplete` for a script,
    /// `.quit` for a person pressing Ctrl-D.
    /// A person at a terminal (`interactive`) is asked before the run finishes, so that the
    /// last answer can still be taken back, and Enter at a numeric habit records its target.
    /// `doneMeanwhile` says, when the run reaches a habit, whether a log or another run did it
    /// since the run began: the habit is then passed over instead of asked.
    public static func drive(
        _ run: inout RoutineRun, endOfInputResult: RunResult = .incomplete, interactive: Bool = false,
        read: () -> RunLine, emit: (RunEvent, RoutineRun) -> Void, doneMeanwhile: (Int) -> Completion? = { _ in nil }
    ) -> RunResult {
        emit(.start, run)
        for record in run.records { emit(.record(record), run) }
        var again = false
        var asked: (node: Int, facts: AskedNode)? = nil
        while true {
            guard let node = run.current else {
                guard interactive, run.canGoBack else { break }
                switch confirmEnd(&run, read: read, emit: emit) {
                case .some(let result): return finish(&run, result, emit)
                case .none: continue
                }
            }
            if !again, asked?.node != node, !run.routine.isQuestion(node), let completion = doneMeanwhile(node) {
                let before = run.records.count
                run.passOver(doneMeanwhile: completion)
                for record in run.records[before...] { emit(.record(record), run) }
                continue
            }
            emit(.prompt(node: node, step: run.step, again: again), run)
            again = false
            let text: String
            switch read() {
            case .line(let line): text = line
            case .endOfInput: return finish(&run, endOfInputResult, emit)
            case .interrupted: return finish(&run, .interrupted, emit)
            case .tooLong(let limit):
                emit(.invalid(node: node, input: "", message: "an answer is at most \(limit) bytes: this line is longer"), run)
                again = true
                continue
            }
            if asked?.node != node { asked = (node, AskedNode(node, of: run.routine)) }
            var input = AnswerInterpreter.interpret(text, at: asked!.facts)
            // At a terminal the target is the default: Enter records it.
            if interactive, let target = asked!.facts.target, text.trimmingWhitespace().isEmpty {
                input = .decision(.done(value: target.amount))
            }
            switch input {
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
                return finish(&run, .quit, emit)
            case .help:
                emit(.help(node: node), run)
                again = true
            case .invalid(let message):
                emit(.invalid(node: node, input: text, message: message), run)
                again = true
            }
        }
        return finish(&run, .completed, emit)
    }

    /// "That's the end": Enter finishes (the result), `b` goes back (nil: the run goes on).
    private static func confirmEnd(_ run: inout RoutineRun, read: () -> RunLine, emit: (RunEvent, RoutineRun) -> Void) -> RunResult? {
        while true {
            emit(.confirmEnd, run)
            switch read() {
            case .line(let line):
                switch line.trimmingWhitespace().lowercased() {
                case "", "d", "done", "y", "yes": return .completed
                case "b", "back":
                    if let undone = run.back() { emit(.back(node: undone), run) }
                    return nil
                case "q", "quit": return .completed
                default:
                    emit(.invalid(node: -1, input: line, message: "Enter to finish, b to go back"), run)
                }
            case .endOfInput: return .completed
            case .interrupted: return .interrupted
            case .tooLong: emit(.invalid(node: -1, input: "", message: "Enter to finish, b to go back"), run)
            }
        }
    }

    private static func finish(_ run: inout RoutineRun, _ result: RunResult, _ emit: (RunEvent, RoutineRun) -> Void) -> RunResult {
        emit(.end(result), run)
        return result
    }
}
