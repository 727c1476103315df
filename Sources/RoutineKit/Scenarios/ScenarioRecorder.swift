/// Writes a case from a scripted run: the answers as `answer` and `do` lines, and every event
/// the run produced as the `expect` line that checks it, so the case passes as recorded and
/// can then be edited.
public enum ScenarioRecorder {
    /// The case's text (ending with a line break) and how the run ended. `name` must not be
    /// one of `taken`; a number is added until it is not.
    public static func record(
        routine: Routine, date: CalendarDate, answers: [String], name: String, taken: Set<String> = [], doneThisWeek: [Int: Int] = [:]
    ) -> (text: String, result: RunResult) {
        var unique = name
        var n = 2
        while taken.contains(unique) {
            unique = "\(name) \(n)"
            n += 1
        }
        var lines = ["case \(unique)", "date \(date)"]
        var run = RoutineRun(routine: routine, date: date, doneThisWeek: doneThisWeek)
        var remaining = answers[...]
        let result = RunDriver.drive(
            &run, endOfInputResult: .incomplete,
            read: {
                guard let line = remaining.popFirst() else { return .endOfInput }
                return .line(line)
            },
            emit: { event, run in
                switch event {
                case .prompt(let node, _, let again) where !again && routine.isQuestion(node):
                    lines.append("expect question \(routine.id(of: node))")
                case .record(let record):
                    let id = routine.id(of: record.node)
                    switch record.outcome {
                    case .answer(let option): lines.append("answer \(ScenarioText.argument(routine.answer(option, of: record.node)))")
                    case .habit(.done, .some(let value)):
                        lines += ["do \(NumberText.format(value))", "expect value \(id) \(NumberText.format(value))"]
                    case .habit(.done, nil): lines += ["do d", "expect habit \(id) done"]
                    case .habit(.skipped, _): lines += ["do s", "expect habit \(id) skipped"]
                    case .habit(.notScheduled, _): lines.append("expect habit \(id) not-scheduled")
                    }
                case .back: lines.append("do b")
                case .end(.quit): lines += ["do q", "expect end quit"]
                case .end(.completed): lines.append("expect end completed")
                case .end, .start, .prompt, .invalid, .help, .confirmEnd: break
                }
            })
        return (lines.joined(separator: "\n") + "\n", result)
    }
}
