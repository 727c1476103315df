/// Whether a run may be recorded under a date: one more than a day ahead of today is
/// probably a mistyped year, and one more than a year ahead is refused unless forced, so that
/// a slip of the keyboard does not put a run decades into the history's future.
public enum RunDate: Equatable, Sendable {
    /// Today, the past, or tomorrow (a run started just before midnight somewhere else).
    case ordinary
    /// More than a day ahead, within a year: recorded, with a warning.
    case ahead(days: Int)
    /// More than a year ahead: refused unless forced.
    case tooFarAhead(days: Int)

    public init(_ date: CalendarDate, today: CalendarDate) {
        let days = date.dayNumber - today.dayNumber
        let yearAhead = CalendarDate(
            year: today.year + 1, month: today.month, day: min(today.day, CalendarDate.daysIn(month: today.month, year: today.year + 1)))
        if date > yearAhead {
            self = .tooFarAhead(days: days)
        } else if days > 1 {
            self = .ahead(days: days)
        } else {
            self = .ordinary
        }
    }
}

extension Diagnostic {
    /// W012: a run dated more than a day ahead.
    public static func runDateAhead(_ date: CalendarDate, days: Int, today: CalendarDate) -> Diagnostic {
        Diagnostic(
            .runDateAhead, "the run is dated \(date), \(grouped(days)) days after today (\(today))", at: nil,
            notes: [Note("it is recorded under that date; leave out --date to record it today")])
    }

    /// The refusal of a date more than a year ahead, as a usage error's text.
    public static func runDateTooFarAhead(_ date: CalendarDate, days: Int, today: CalendarDate) -> String {
        "the run's date \(date) is \(grouped(days)) days after today (\(today)), more than a year ahead: "
            + "check the year, or pass --force to record it there"
    }
}
