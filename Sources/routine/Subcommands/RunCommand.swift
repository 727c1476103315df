import ArgumentParser
import RoutineHistory
import RoutineKit
import RoutineTerminal

#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Walk through a routine, step by step.",
        discussion: """
            At a terminal, answers are typed: Enter or d (done), s (skip), b (back), q (quit), ? (help), \
            an option's number or text, or a numeric habit's value. When standard input is not a terminal, \
            or with --answers, the same answers are read one per line. Every run is recorded in the history, \
            step by step; an unfinished run of the same routine and day can be resumed. Exit 0 when the run \
            completes or is quit, 3 when scripted answers run out, 74 when the history file is not a routine \
            history, 130 on Ctrl-C (143 on SIGTERM, 129 on SIGHUP or when the terminal is closed; each recorded as interrupted).
            """
    )

    @Argument(
        help: "The routine file (.rt, .yaml, .yml); '-' reads standard input (then answers need --answers).",
        completion: .routineFiles)
    var file: String

    @Option(help: "The run's date (YYYY-MM-DD) for schedules and the history; default: today in local time.")
    var date: String?

    @Option(help: "Read the answers from this file, one per line.", completion: .file())
    var answers: String?

    @Flag(help: "Write the run as JSON Lines on stdout, one event per line, without prompts.")
    var json = false

    @OptionGroup var history: HistoryOptions

    @Flag(help: "Neither read nor write any history (also: ROUTINE_HISTORY=off).")
    var noHistory = false

    @Flag(help: "Resume the day's unfinished run of this routine without asking.")
    var resume = false

    @Flag(help: "Start a new run even when the day's last run is unfinished (it is kept as it was).")
    var fresh = false

    @Flag(help: "Record the run under a --date more than a year ahead.")
    var force = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        try DateRangeOptions.checkDates([("--date", date)])
        if let day = date.flatMap(CalendarDate.init), !force, case .tooFarAhead(let days) = RunDate(day, today: .today()) {
            throw ValidationError(Diagnostic.runDateTooFarAhead(day, days: days, today: .today()))
        }
        if file == "-", answers == nil {
            throw ValidationError("reading the routine from standard input needs the answers in a file: --answers FILE")
        }
        if resume, fresh { throw ValidationError("--resume and --fresh contradict each other: choose one") }
        if noHistory, history.history != nil { throw ValidationError("--history and --no-history contradict each other: choose one") }
        if noHistory, resume { throw ValidationError("--resume needs the history: it cannot go with --no-history") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let loaded = try input.loadValid(file)
        var source = try AnswerSource(path: answers)
        let interactive = source.isTerminal && !json
        let colors =
            interactive && Terminal.isTerminal(1) && Terminal.environmentAllowsColor && input.color != .never
            || input.color == .always
        var transcript = RunTranscript(interactive: interactive, colors: colors)
        let day = date.flatMap(CalendarDate.init) ?? .today()
        switch RunDate(day, today: .today()) {
        case .ahead(let days), .tooFarAhead(let days): report(.runDateAhead(day, days: days, today: .today()), colors: input.colorsOnStandardError)
        case .ordinary: break
        }
        var out = BufferedOutput(fd: 1)
        Interrupts.install()
        OutputFailure.terminalRun = interactive && Terminal.isTerminal(1)

        var session = RunHistorySession(loaded: loaded, path: file, date: day, colors: colors)
        try session.open(history, disabled: noHistory)
        let choice = session.resumeChoice(resume: resume, fresh: fresh, interactive: interactive, source: &source, out: &out)
        if case .stop(let code) = choice {
            out.flush()
            if code != .success { throw code }
            return
        }
        var run = session.begin(choice)
        // The header's count of what is left, for the person who reads it.
        if interactive { run.trackProgress() }

        // Only a person at a terminal is timed; a resumed run keeps what was measured before.
        var timer = StepTimer(measures: interactive, kept: session.keptSeconds)
        // What the next read answers, for the keys the terminal offers.
        var asking = PromptKind.line
        // The answer last given at each question, highlighted when the question comes again.
        var answered: [Int: Int] = [:]
        let result = RunDriver.drive(
            &run, endOfInputResult: interactive ? .quit : .incomplete, interactive: interactive,
            read: {
                // Whoever answers on standard input may be waiting to see the question; a
                // file of answers is not, and a write per step would cost a system call each.
                let waiting = !source.isFile
                let line = source.next(kind: asking, colors: colors, ready: { if waiting { out.flush() } })
                if let elapsed = source.countdownSeconds { timer.timed(elapsed) }
                return line
            },
            emit: { event, run in
                timer.observe(event, run)
                // The step is committed before it is shown: what the screen says is recorded.
                session.recorder?.observe(event, run, seconds: timer.seconds)
                // What the run took, as `log` says it: its steps' times (the timer caught up above).
                var elapsed: Double? { interactive ? timer.total ?? 0 : nil }
                if json {
                    if let object = event.json(run, elapsed: elapsed) { out.write(object) }
                    if case .start = event, let resumed = session.resumedJSON { out.write(resumed) }
                    if case .invalid = event { StandardError.write(transcript.render(event, run).stderr) }
                    return
                }
                if interactive {
                    if case .record(let record) = event, case .answer(let k) = record.outcome { answered[record.node] = k }
                    asking = Self.kind(of: event, run, transcript, highlighting: answered) ?? asking
                    // Only the summary reads the times: a copy at every step would be copied
                    // again by the timer's next append.
                    if case .end = event { transcript.measured = timer.seconds }
                }
                let (stdout, stderr) = transcript.render(event, run, elapsed: elapsed)
                if interactive, case .end = event { out.write("\n") }
                out.write(stdout)
                if case .start = event, let resumed = session.resumedText { out.write(resumed) }
                if !stderr.isEmpty {
                    out.flush()
                    StandardError.write(stderr)
                }
            },
            // A file of answers runs at once: nothing is logged meanwhile, and a query per
            // step would cost a large scripted run its speed.
            doneMeanwhile: { node in source.isFile ? nil : session.doneMeanwhile(node) })
        out.flush()
        switch result {
        case .completed, .quit: return
        case .incomplete: throw Exit.answersRanOut
        case .interrupted: throw Interrupts.exitCode
        }
    }

    /// What a prompt asks: a menu for a question (drawn afresh under a message), the answer
    /// given before highlighted; single keys for a habit.
    static func kind(of event: RunEvent, _ run: RoutineRun, _ transcript: RunTranscript, highlighting answered: [Int: Int]) -> PromptKind? {
        switch event {
        case .prompt(let node, _, let again):
            let routine = run.routine
            if routine.isQuestion(node) {
                let options = (0..<routine.optionCount(of: node)).map { Sanitizer.visible(routine.answer($0, of: node)) }
                return .menu(options: options, prompt: "  " + transcript.inputLine(node, routine), highlighted: answered[node] ?? 0, printed: !again)
            }
            if let target = routine.target(of: node) { return .amount(target: Sanitizer.visible(AnswerInterpreter.describe(target))) }
            return routine.duration(of: node).map { .timed(seconds: $0) } ?? .habit
        case .confirmEnd: return .end
        default: return nil
        }
    }
}
