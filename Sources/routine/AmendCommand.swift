import ArgumentParser
import RoutineHistory
import RoutineKit

struct AmendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amend",
        abstract: "Fix what a day recorded for one habit, afterwards.",
        discussion: """
            Changes the newest step of that day's runs (or logs) that reached the habit to done, skipped or a \
            numeric habit's value; when nothing reached it, adds a log. Every change keeps when it was made and \
            what the step held, so 'log --date' marks it (amended), export and import carry it, and --undo \
            reverts the newest amendment of the routine.
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String

    @Argument(help: "The day (YYYY-MM-DD).")
    var date: String?

    @Argument(help: "The habit's ID.", completion: .habitIDs)
    var habit: String?

    @Argument(help: "done, skipped, or a numeric habit's value.")
    var result: String?

    @Option(help: "How long it took, such as 20m.")
    var took: String?

    @Flag(help: "Revert the newest amendment of this routine.")
    var undo = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        if undo {
            if date != nil || took != nil { throw ValidationError("--undo reverts the newest amendment: it takes no day, habit or --took") }
            return
        }
        guard date != nil, habit != nil, let result else { throw ValidationError("amend needs the day, the habit, and done, skipped or a value") }
        try DateRangeOptions.checkDates([("DATE", date)])
        if result != "done", result != "skipped" { _ = try LogArguments.value(result) }
        if let took { _ = try LogArguments.seconds(took) }
    }

    func run() throws {
        ignoreBrokenPipes()
        let loaded = try input.loadValid(file)
        let routine = loaded.routine
        let store = try LogArguments.openStore(history)
        if undo {
            guard let undone = try store.undoAmendment(of: routine.name) else {
                report(.nothingToAmend(routine.name), colors: input.colorsOnStandardError)
                throw Exit.errors
            }
            let back = undone.amendment.before.map { "back to " + Self.describe($0.result, $0.value) } ?? "the log it added is removed"
            StandardOutput.write(visible: "\(undone.step.title) on \(undone.date): \(back)\n")
            return
        }
        guard let date, let day = CalendarDate(date), let habit, let result else { return }
        let change = AmendChange(
            result: result == "skipped" ? .skipped : .done, value: result == "done" || result == "skipped" ? nil : try LogArguments.value(result),
            seconds: try took.map(LogArguments.seconds))
        switch try store.amend(habit, of: routine, on: day, to: change, path: absolutePath(file), sourceHash: sourceHash(loaded.file.bytes)) {
        case .failure(let refusal):
            throw LogArguments.refuse(refusal, input)
        case .success(let outcome):
            let now = LogArguments.describe(outcome.step)
            let text = outcome.amendment.before.map { "was " + Self.describe($0.result, $0.value) + ", now " + now } ?? "added as a log: " + now
            StandardOutput.write(visible: "\(outcome.step.title) on \(day.weekdayName) \(day): \(text)\n")
        }
    }

    static func describe(_ result: RecordedStep.Result, _ value: Double?) -> String {
        if result == .done, let value { return NumberText.format(value) }
        return result == .notScheduled ? "not scheduled" : result.rawValue
    }
}
