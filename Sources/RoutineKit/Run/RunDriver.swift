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
        var stepper = RunStepper(run, interactive: interactive, endOfInputResult: endOfInputResult)
        stepper.begin(emit: emit, doneMeanwhile: doneMeanwhile)
        while stepper.result == nil { stepper.take(read(), emit: emit, doneMeanwhile: doneMeanwhile) }
        run = stepper.run
        return stepper.result!
    }
}
