import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's side of a run's history (``RunHistory`` holds the rest, shared with the
/// studio): opening the store as the command's options say, asking whether to resume, and
/// saying what happened on standard error.
struct RunHistorySession {
    let loaded: LoadedRoutine
    /// The routine's file as given on the command line.
    let path: String
    let date: CalendarDate
    let colors: Bool
    private(set) var history: RunHistory?

    var recorder: RunRecorder? { history?.recorder }
    /// The line shown under the run's heading when it resumes.
    var resumedText: String? { history?.resumed.map { paint($0.text) + "\n" } }
    var resumedJSON: JSONValue? { history?.resumed?.json }
    /// The times measured on the steps a resumed run keeps, as measured before it stopped.
    var keptSeconds: [Double?] { history?.resumed?.keptSeconds ?? [] }

    init(loaded: LoadedRoutine, path: String, date: CalendarDate, colors: Bool) {
        self.loaded = loaded
        self.path = path
        self.date = date
        self.colors = colors
    }

    /// What the run starts from.
    enum Choice {
        case fresh
        case resume(ResumePlan)
        /// Nothing runs: the person closed the input (0) or pressed Ctrl-C at the question.
        case stop(ExitCode)
    }

    mutating func open(_ options: HistoryOptions, disabled: Bool) throws {
        let store = try options.openForWriting(disabled: disabled, unavailable: { Self.warn($0?.diagnostic ?? .noHistoryPlace()) })
        history = RunHistory(
            routine: loaded.routine, source: loaded.file.bytes, path: absolutePath(path), date: date, store: store,
            warn: Self.warn, note: { StandardError.write(visible: "routine: note: \($0)\n") })
    }

    /// Whether to resume: `--resume` does, `--fresh` and scripts do not unless told, and a
    /// person at a terminal is asked when the day's last run of this routine is unfinished.
    func resumeChoice(
        resume: Bool, fresh: Bool, interactive: Bool, source: inout AnswerSource, out: inout BufferedOutput
    ) -> Choice {
        guard let history, history.store != nil, !fresh, resume || interactive else { return .fresh }
        let name = loaded.routine.name
        let found: StoredRun?
        do {
            found = try history.unfinishedRun()
        } catch {
            Self.warn(error.diagnostic)
            return .fresh
        }
        guard let latest = found else {
            if resume { StandardError.write(visible: "routine: note: no unfinished run of '\(name)' on \(date) to resume; starting a new one\n") }
            return .fresh
        }
        let plan = history.plan(latest)
        if let divergence = plan.divergence {
            StandardError.write(visible: "routine: note: " + RunHistory.describe(divergence, file: loaded.file.name) + "\n")
        }
        if resume { return .resume(plan) }
        let day = date == .today() ? "today's run" : "the \(date.weekdayName) \(date) run"
        var question = "Resume \(day) of '\(name)' \(RunHistory.position(of: plan))? [Y/n] "
        while true {
            out.write(visible: question)
            out.flush()
            switch source.next(kind: .yesNo) {
            case .line(let line):
                switch line.lowercased().filter({ !$0.isWhitespace }) {
                case "", "y", "yes": return .resume(plan)
                case "n", "no": return .fresh
                default: question = "  y: resume where it stopped · n: start a new run (the old one is kept) [Y/n] "
                }
            case .tooLong: question = "  y: resume where it stopped · n: start a new run (the old one is kept) [Y/n] "
            case .endOfInput: return .stop(.success)
            case .interrupted: return .stop(Interrupts.exitCode)
            }
        }
    }

    /// The run to drive, with its recorder.
    mutating func begin(_ choice: Choice) -> RoutineRun {
        guard history != nil else { return RoutineRun(routine: loaded.routine, date: date) }
        if case .resume(let plan) = choice { return history!.begin(plan) }
        return history!.begin(nil)
    }

    /// Whether a log or another run did habit `node` since this run began; nil without a history.
    func doneMeanwhile(_ node: Int) -> Completion? { history?.doneMeanwhile(node) }

    private func paint(_ text: String) -> String { colors ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// Reports a history problem that does not stop the run; the recorder reports at most one.
    static func warn(_ diagnostic: Diagnostic) {
        report(diagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
    }
}
