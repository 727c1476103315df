import ArgumentParser
import RoutineHistory
import RoutineKit

struct DoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Record one habit outside a run: done, with its value or time, or skipped.",
        discussion: """
            The log is kept in the history as a run of its own kind with one step, so log, stats, graph --stats, \
            export and import all see it, and a later run passes over the habit. It is refused (exit 1, nothing \
            written) when the habit is already done that day (E501), not scheduled that day (E502), has met this \
            week's quota (E503), is a question (E504) or is unknown (E505), or when a numeric habit's value is \
            missing (E506); --force records anyway, except for unknown nodes and questions.
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String

    @Argument(help: "The habit's ID.", completion: .habitIDs)
    var habit: String

    @Argument(help: "A numeric habit's value.")
    var value: String?

    @Option(help: "The day it counts for (YYYY-MM-DD); default: today in local time.")
    var date: String?

    @Option(help: "How long it took, such as 25m or 1h30m.")
    var took: String?

    @Flag(help: "Record a skip instead.")
    var skip = false

    @Flag(help: "Take back the last log of this habit on that day (never a step of a run).")
    var undo = false

    @Flag(help: "Record it even when already done, not scheduled that day, or over its weekly quota.")
    var force = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        try DateRangeOptions.checkDates([("--date", date)])
        if skip, undo { throw ValidationError("--skip and --undo contradict each other: choose one") }
        if undo, value != nil || took != nil || force {
            throw ValidationError("--undo takes back a log: it takes no value, --took or --force")
        }
        if skip, value != nil { throw ValidationError("a skip takes no value") }
        if let value { _ = try LogArguments.value(value) }
        if let took { _ = try LogArguments.seconds(took) }
    }

    func run() throws {
        ignoreBrokenPipes()
        let loaded = try input.loadValid(file)
        let routine = loaded.routine
        let day = date.flatMap(CalendarDate.init) ?? .today()
        let store = try LogArguments.openStore(history)
        if undo {
            let rules = DayRules(routine: routine, facts: DayFacts(date: day), unconditional: [])
            if case .failure(let refusal) = rules.habit(habit) { throw LogArguments.refuse(refusal, input) }
            guard let removed = try store.undoLog(of: habit, routine: routine.name, on: day) else {
                throw LogArguments.refuse(.nothingToUndo(id: habit, date: day), input)
            }
            let when = removed.startedAt.clockTime(offset: removed.utcOffset)
            let what = removed.steps.first.map { LogArguments.describe($0) } ?? "log"
            StandardOutput.write(
                visible: "\(removed.steps.first?.title ?? habit): took back the log of \(when) (\(what)) on \(day.weekdayName) \(day)\n")
            return
        }
        let request = LogRequest(
            id: habit, skip: skip, value: try value.map(LogArguments.value), seconds: try took.map(LogArguments.seconds), force: force)
        switch try store.log(request, of: routine, on: day, path: absolutePath(file), sourceHash: sourceHash(loaded.file.bytes)) {
        case .failure(let refusal):
            throw LogArguments.refuse(refusal, input)
        case .success(let log):
            guard let step = log.steps.first else { return }
            let when = log.startedAt.clockTime(offset: log.utcOffset)
            StandardOutput.write(
                visible: "\(step.title): \(LogArguments.describe(step, in: routine)), logged at \(when) for \(day.weekdayName) \(day)\n")
        }
    }
}

/// What `done` and `amend` share: their values, the history they write, their refusals.
enum LogArguments {
    static func value(_ text: String) throws -> Double {
        guard let number = Double(text), number.isFinite, number >= 0, number <= TargetValue.maximum else {
            throw ValidationError("'\(text)' is not a value: give a number from 0 to \(NumberText.format(TargetValue.maximum))")
        }
        return number
    }

    static func seconds(_ text: String) throws -> Double {
        switch DurationText.parse(Substring(text)) {
        case .success(let seconds) where seconds > 0 && seconds <= DurationText.maximumSeconds: return Double(seconds)
        case .success: throw ValidationError("--took '\(text)' must be more than nothing and at most a day")
        case .failure(let failure): throw ValidationError("--took '\(text)' is not a duration such as 25m or 1h30m: \(failure.reason)")
        }
    }

    /// The history a log is written to; without one (no HOME, a history that cannot be
    /// written) nothing can be logged, which is an error.
    static func openStore(_ options: some HistoryChoice) throws -> HistoryStore {
        var problem: Diagnostic?
        let store = try options.openForWriting(
            disabled: false,
            unavailable: { error in
                problem = error?.diagnostic
            })
        guard let store else {
            report(problem ?? .noHistoryForLog(), colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.historyRefused
        }
        return store
    }

    /// Reports `refusal` and gives the exit code: 1, nothing written.
    static func refuse(_ refusal: LogRefusal, _ input: InputOptions) -> ExitCode {
        report(refusal.diagnostic, colors: input.colorsOnStandardError)
        return Exit.errors
    }

    /// "done", "20 of 20 reps", "skipped", with the time it took.
    static func describe(_ step: StoredStep, in routine: Routine? = nil) -> String {
        var text: String
        switch step.decision.result {
        case .done:
            text = step.valueText(in: routine) ?? "done"
        case .skipped: text = "skipped"
        case .notScheduled, .answered: text = step.decision.result.rawValue
        }
        if let seconds = step.seconds, Int(seconds.rounded()) > 0 { text += " in " + DurationText.human(Int(seconds.rounded())) }
        return text
    }
}
