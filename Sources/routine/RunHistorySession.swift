import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The history side of `routine run`: opening the store, offering to resume the day's
/// unfinished run, and the recorder that keeps the record in step with the run.
struct RunHistorySession {
    let loaded: LoadedRoutine
    /// The routine's file as given on the command line.
    let path: String
    let date: CalendarDate
    let colors: Bool
    private(set) var store: HistoryStore?
    private(set) var recorder: RunRecorder?
    /// The line shown under the run's heading when it resumes.
    private(set) var resumedText: String?
    private(set) var resumedJSON: JSONValue?
    /// The times measured on the steps a resumed run keeps, as measured before it stopped.
    private(set) var keptSeconds: [Double?] = []

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
        case stop(Int32)
    }

    mutating func open(_ options: HistoryOptions, disabled: Bool) throws {
        store = try options.openForWriting(disabled: disabled, unavailable: { Self.warn($0?.diagnostic ?? .noHistoryPlace()) })
    }

    /// Whether to resume: `--resume` does, `--fresh` and scripts do not unless told, and a
    /// person at a terminal is asked when the day's last run of this routine is unfinished.
    func resumeChoice(
        resume: Bool, fresh: Bool, interactive: Bool, source: inout AnswerSource, out: inout BufferedOutput
    ) -> Choice {
        guard let store, !fresh, resume || interactive else { return .fresh }
        let name = loaded.routine.name
        let latest: StoredRun?
        do {
            latest = try store.latestRun(of: name, on: date.description)
        } catch {
            Self.warn(error.diagnostic)
            return .fresh
        }
        guard let latest, latest.isResumable else {
            if resume { StandardError.write(visible: "routine: note: no unfinished run of '\(name)' on \(date) to resume; starting a new one\n") }
            return .fresh
        }
        let plan = ResumePlan(
            latest, routine: loaded.routine, date: date, doneThisWeek: doneThisWeek(excluding: latest.id),
            doneEarlier: doneEarlier(excluding: latest.id))
        if let divergence = plan.divergence { StandardError.write(visible: describe(divergence)) }
        if resume { return .resume(plan) }
        let day = date == .today() ? "today's run" : "the \(date.weekdayName) \(date) run"
        let position = plan.run.current.map { "at step \(plan.run.step) (\(loaded.routine.title(of: $0)))" } ?? "at its end"
        var question = "Resume \(day) of '\(name)' \(position)? [Y/n] "
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
            case .endOfInput: return .stop(0)
            case .interrupted: return .stop(Interrupts.exitCode)
            }
        }
    }

    /// The run to drive, with its recorder.
    mutating func begin(_ choice: Choice) -> RoutineRun {
        guard let store else { return RoutineRun(routine: loaded.routine, date: date) }
        let counts = doneThisWeek(excluding: nil)
        let earlier = doneEarlier(excluding: nil)
        do {
            switch choice {
            case .resume(let plan):
                recorder = try RunRecorder.resume(store, plan, onFailure: { Self.warn($0.diagnostic) })
                noteDoneMeanwhile()
                keptSeconds = plan.stored.steps.prefix(plan.keptSteps).map(\.seconds)
                let when = plan.stored.startedAt.clockTime(offset: plan.stored.utcOffset)
                let dropped = plan.stored.steps.count - plan.keptSteps
                resumedText = paint("resumed at step \(plan.run.step): \(plan.keptSteps) steps were recorded from \(when)"
                    + (dropped > 0 ? ", \(dropped) dropped" : "")) + "\n"
                resumedJSON = .object([
                    ("event", .string("resume")), ("step", .int(plan.run.step)), ("started", .string(plan.stored.startedAt.description)),
                    ("kept", .int(plan.keptSteps)), ("dropped", .int(dropped)),
                ])
                return plan.run
            case .fresh, .stop:
                recorder = try RunRecorder.start(
                    store, routine: loaded.routine, path: absolutePath(path), source: loaded.file.bytes, date: date,
                    onFailure: { Self.warn($0.diagnostic) })
                noteDoneMeanwhile()
            }
        } catch {
            Self.warn(error.diagnostic)
        }
        return RoutineRun(routine: loaded.routine, date: date, doneThisWeek: counts, doneEarlier: earlier)
    }

    /// Says so when a habit done in this run had been done meanwhile by a log or another run.
    mutating func noteDoneMeanwhile() {
        let routine = loaded.routine
        recorder?.onDoneMeanwhile = { index, reason in
            let by = reason == .doneByLog ? "a log" : "another run"
            StandardError.write(visible: "routine: note: '\(routine.id(of: index))' was done meanwhile by \(by); this run records it as passed over\n")
        }
    }

    /// The habits a log or another run already did on the run's day, by node index.
    func doneEarlier(excluding run: Int64?) -> [Int: Completion] {
        guard let store else { return [:] }
        do {
            return try store.doneEarlier(of: loaded.routine, on: date, excluding: run)
        } catch {
            Self.warn(error.diagnostic)
            return [:]
        }
    }

    /// Whether a log or another run did habit `node` since this run began; nil without a
    /// history. Asked as the run reaches the habit, so that it is not asked to do it twice.
    func doneMeanwhile(_ node: Int) -> Completion? {
        guard let recorder else { return nil }
        return doneEarlier(excluding: recorder.runID)[node]
    }

    /// For each habit with a weekly quota, the days of this ISO week (Monday on) it was done,
    /// other runs of today included. Without a history every habit is offered.
    func doneThisWeek(excluding run: Int64?) -> [Int: Int] {
        guard let store else { return [:] }
        do {
            return try store.doneThisWeek(loaded.routine, on: date, excluding: run)
        } catch {
            Self.warn(error.diagnostic)
            return [:]
        }
    }

    private func describe(_ divergence: ReplayDivergence) -> String {
        "routine: note: '\(loaded.file.name)' changed since that run: its step \(divergence.step) ('\(divergence.node)') "
            + "no longer applies, because \(divergence.reason); that step and the ones after it are dropped when it resumes\n"
    }

    private func paint(_ text: String) -> String { colors ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// Reports a history problem that does not stop the run; the recorder reports at most one.
    static func warn(_ diagnostic: Diagnostic) {
        report(diagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
    }
}

