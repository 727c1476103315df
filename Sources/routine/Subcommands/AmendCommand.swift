import ArgumentParser
import RoutineHistory
import RoutineKit

struct AmendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amend",
        abstract: "Fix what a day recorded for one habit, or a question's answer, afterwards.",
        discussion: """
            Changes the newest step of that day's runs (or logs) that reached the habit to done, skipped or a \
            numeric habit's value; when nothing reached it, adds a log. For a question, changes the day's answer \
            (the last one given) to another option, by number or text as 'run' takes it; the statistics then \
            replay the day with it. Every change keeps when it was made and what the step held, so 'log --date' \
            marks it (amended), export and import carry it, and --undo reverts the newest amendment of the routine.
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String

    @Argument(help: "The day (YYYY-MM-DD).")
    var date: String?

    @Argument(help: "The habit's or question's ID.", completion: .habitIDs)
    var habit: String?

    @Argument(help: "done, skipped, or a numeric habit's value; for a question, the answer's number or text.")
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
        guard date != nil, habit != nil, result != nil else {
            throw ValidationError("amend needs the day, the habit and done, skipped or a value (or the question and its answer)")
        }
        try DateRangeOptions.checkDates([("DATE", date)])
        // Whether the result is a value or an answer depends on the node, known once the routine is read.
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
            let back =
                undone.amendment.before.map { "back to " + Self.describe($0.result, $0.value, answer: $0.optionText) }
                ?? "the log it added is removed"
            StandardOutput.write(visible: "\(undone.step.title) on \(undone.date): \(back)\n")
            return
        }
        guard let date, let day = CalendarDate(date), let habit, let result else { return }
        if let question = routine.indexByID()[habit], routine.isQuestion(question) {
            if took != nil { throw ValidationError("--took is for a habit: an answer takes no time") }
            return try amendAnswer(question, result, on: day, routine, store)
        }
        let change = AmendChange(
            result: result == "skipped" ? .skipped : .done, value: result == "done" || result == "skipped" ? nil : try LogArguments.value(result),
            seconds: try took.map(LogArguments.seconds))
        switch try store.amend(habit, of: routine, on: day, to: change, path: absolutePath(file), sourceHash: sourceHash(loaded.file.bytes)) {
        case .failure(let refusal):
            throw LogArguments.refuse(refusal, input)
        case .success(let outcome):
            let now = LogArguments.describe(outcome.step, in: routine)
            let text = outcome.amendment.before.map { "was " + Self.describe($0.result, $0.value) + ", now " + now } ?? "added as a log: " + now
            StandardOutput.write(visible: "\(outcome.step.title) on \(day.weekdayName) \(day): \(text)\n")
        }
    }

    /// The day's answer to `question` changed to the option `text` names.
    private func amendAnswer(_ question: Int, _ text: String, on day: CalendarDate, _ routine: Routine, _ store: HistoryStore) throws {
        let id = routine.id(of: question)
        let outcome: AmendOutcome
        switch routine.option(text, of: question) {
        case .failure(let refusal): throw LogArguments.refuse(refusal, input)
        case .success(let option):
            switch try store.amendAnswer(id, of: routine, on: day, to: option) {
            case .failure(let refusal): throw LogArguments.refuse(refusal, input)
            case .success(let done): outcome = done
            }
        }
        let was = outcome.amendment.before?.optionText ?? ""
        let now = outcome.step.decision.optionText ?? ""
        StandardOutput.write(
            visible: "\(outcome.step.title) on \(day.weekdayName) \(day): was \(StringLiteral.encode(was)), now \(StringLiteral.encode(now))\n")
    }

    static func describe(_ result: RecordedStep.Result, _ value: Double?, answer: String? = nil) -> String {
        if result == .answered { return StringLiteral.encode(answer ?? "") }
        if result == .done, let value { return NumberText.format(value) }
        return result == .notScheduled ? "not scheduled" : result.rawValue
    }
}
