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
    public static func drive(
        _ run: inout RoutineRun, endOfInputResult: RunResult = .incomplete,
        read: () -> RunLine, emit: (RunEvent, RoutineRun) -> Void
    ) -> RunResult {
        emit(.start, run)
        for record in run.records { emit(.record(record), run) }
        var again = false
        var asked: (node: Int, facts: AskedNode)? = nil
        while let node = run.current {
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
            switch AnswerInterpreter.interpret(text, at: asked!.facts) {
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

    private static func finish(_ run: inout RoutineRun, _ result: RunResult, _ emit: (RunEvent, RoutineRun) -> Void) -> RunResult {
        emit(.end(result), run)
        return result
    }
}
