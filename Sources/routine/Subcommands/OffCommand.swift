import ArgumentParser
import RoutineHistory
import RoutineKit

struct OffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off",
        abstract: "Record days off (sick, on holiday) of a routine: every habit of it is not due on them.",
        discussion: """
            On a day off streaks do not break and rates do not fall; a run made that day still counts what it \
            did. --undo removes the days off of that span; --list shows the days off (of FILE, or of every routine). \
            Days off are kept in the history, shown by 'log' and the calendars of 'stats', and carried by \
            'history export' and 'history import'.
            """
    )

    /// The longest span one command records: a year, so that a mistyped year does not write a century.
    static let longestSpan = 366

    @Argument(help: "The routine (.rt, .yaml, .yml): its days off are recorded under its name.", completion: .routineFiles)
    var file: String?

    @Argument(help: "The (first) day off, YYYY-MM-DD.")
    var date: String?

    @Option(help: "The last day off, YYYY-MM-DD (default: DATE alone).")
    var until: String?

    @Option(help: "Why (shown by 'log' and '--list').")
    var reason: String?

    @Flag(help: "Remove the days off from DATE through --until instead.")
    var undo = false

    @Flag(help: "List the days off, oldest first.")
    var list = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        try DateRangeOptions.checkDates([("DATE", date), ("--until", until)])
        if list {
            if date != nil || until != nil || reason != nil || undo {
                throw ValidationError("--list takes only FILE: no DATE, --until, --reason or --undo")
            }
            return
        }
        guard file != nil, let first = date.flatMap(CalendarDate.init) else { throw ValidationError("give FILE and DATE, or --list") }
        if undo, reason != nil { throw ValidationError("--undo takes no --reason") }
        if let reason, reason.isEmpty { throw ValidationError("--reason must not be empty") }
        if let reason, let problem = RecordedValues.reasonProblem(reason) { throw ValidationError("--reason \(problem)") }
        if let last = until.flatMap(CalendarDate.init) {
            if last < first { throw ValidationError("--until \(last) comes before \(first)") }
            if last.dayNumber - first.dayNumber >= Self.longestSpan {
                throw ValidationError("at most \(Self.longestSpan) days at once: \(first) to \(last) is \(last.dayNumber - first.dayNumber + 1)")
            }
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        let name = try file.map { try input.loadValid($0).routine.name }
        if list {
            let days = try history.openForReading()?.daysOff(of: name) ?? []
            let text = days.isEmpty ? "no days off" + (name.map { " of '\($0)'" } ?? "") + "\n" : RunLog.daysOff(days, showRoutine: name == nil)
            StandardOutput.write(Sanitizer.visible(text, keepingNewlines: true))
            return
        }
        guard let name, let first = date.flatMap(CalendarDate.init) else { return }
        let last = until.flatMap(CalendarDate.init) ?? first
        let colors = Terminal.wantsColor(.auto, fd: 2)
        let unwritable = { (error: HistoryError?) in
            guard case .unavailable(let path, let reason) = error else { return report(.noHistoryPlace(), colors: colors) }
            report(.unwritable(path, reason: reason), colors: colors)
        }
        guard let store = try history.openForWriting(disabled: false, unavailable: unwritable) else { throw Exit.historyRefused }
        let span = first == last ? "\(first)" : "\(first) to \(last)"
        do {
            if undo {
                let removed = try store.deleteDaysOff(of: name, from: first, through: last)
                StandardError.write(
                    visible: removed == 0
                        ? "no days off of '\(name)' on \(span)\n"
                        : "removed \(removed) day\(removed == 1 ? "" : "s") off of '\(name)' (\(span))\n")
                return
            }
            let now = Timestamp.now()
            let days = (first.dayNumber...last.dayNumber).map {
                DayOff(routine: name, date: CalendarDate(dayNumber: $0), reason: reason, recordedAt: now)
            }
            let added = try store.insertDaysOff(days)
            let already = days.count - added
            StandardError.write(
                visible: "recorded \(added) day\(added == 1 ? "" : "s") off of '\(name)' (\(span))"
                    + StandardError.already(already, "off") + "\n")
        } catch {
            unwritable(error)
            throw Exit.historyRefused
        }
    }
}
