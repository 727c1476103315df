import ArgumentParser
import RoutineKit

/// `--since` and `--until`, shared by the commands that read the history over a span of days.
struct DateRangeOptions: ParsableArguments {
    @Option(help: "From this day on (YYYY-MM-DD).")
    var since: String?

    @Option(help: "Up to this day (YYYY-MM-DD).")
    var until: String?

    var sinceDate: CalendarDate? { since.flatMap(CalendarDate.init) }
    var untilDate: CalendarDate? { until.flatMap(CalendarDate.init) }
    var window: DateWindow { DateWindow(since: sinceDate, until: untilDate) }

    func validate() throws {
        if case .failure(let problem) = DateWindow.checked(since: since, until: until, names: ("--since", "--until")) {
            throw ValidationError(problem.reason)
        }
    }

    /// Refuses a value that is not a date within the supported years, naming its flag.
    static func checkDates(_ values: [(String, String?)]) throws {
        for (name, value) in values { try checkDate(name, value) }
    }

    /// Refuses one value that is not a date within the supported years, naming its flag.
    static func checkDate(_ name: String, _ value: String?) throws {
        if let value, case .failure(let problem) = CalendarDate.checked(value) {
            throw ValidationError("\(name) '\(value)' \(problem.reason)")
        }
    }
}
