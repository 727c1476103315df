/// A habit as another tracker (Loop Habit Tracker, harsh) keeps it, read from its export.
public struct TrackerHabit: Sendable, Equatable {
    public var name: String
    /// Loop's description, or its question when it has no description: the habit's note.
    public var note: String?
    /// How often: `numerator` times in `denominator` days (Loop's `freq_num`/`freq_den`,
    /// harsh's `3/7`); a denominator of 0 means tracking only, never due.
    public var numerator: Int
    public var denominator: Int
    /// A numeric habit's target (Loop's `type` 1), nil for a yes/no habit.
    public var target: TargetValue?
    public var archived: Bool
    /// The heading the habit is listed under (harsh's `!` lines).
    public var heading: String?

    public init(
        name: String, note: String? = nil, numerator: Int = 1, denominator: Int = 1, target: TargetValue? = nil, archived: Bool = false,
        heading: String? = nil
    ) {
        self.name = name
        self.note = note
        self.numerator = numerator
        self.denominator = denominator
        self.target = target
        self.archived = archived
        self.heading = heading
    }

    /// Tracking only (harsh's frequency 0): never due, logged when it happens.
    public var isTrackingOnly: Bool { numerator == 0 || denominator == 0 }

    /// The routine's schedule for the frequency: nil every day, else times per week; and
    /// whether that is only near the tracker's own (a frequency a week cannot hold). A habit
    /// tracked only has no schedule: see ``ImportPlan``.
    public var schedule: (perWeek: Int?, approximated: Bool) {
        guard !isTrackingOnly else { return (nil, false) }
        if numerator >= denominator { return (nil, false) }
        if denominator == 7 { return (numerator, false) }
        let perWeek = min(7, max(1, Int((Double(numerator) * 7 / Double(denominator)).rounded())))
        return (perWeek == 7 ? nil : perWeek, true)
    }
}

/// What a tracker recorded for one habit on one day.
public enum TrackerMark: Sendable, Equatable {
    /// Done by hand, with the amount of a numeric habit.
    case done(Double?)
    case skipped
    /// Recorded as not done: the routine's statistics find the day missed without a record.
    case notDone
    /// Loop's "done, implied by the frequency": not a day the person did it.
    case implied
    case unknown
}

/// One day of one habit, as read from a tracker's export.
public struct TrackerDay: Sendable, Equatable {
    /// The habit's index in the source's ``TrackerSource/habits``.
    public var habit: Int
    public var date: CalendarDate
    public var mark: TrackerMark
    /// The day had a note (Loop 25, harsh's comment), which a history step cannot hold.
    public var hadNote: Bool
    /// harsh's amount on a habit without a target, which a history step cannot hold.
    public var hadAmount: Bool

    public init(habit: Int, date: CalendarDate, mark: TrackerMark, hadNote: Bool = false, hadAmount: Bool = false) {
        self.habit = habit
        self.date = date
        self.mark = mark
        self.hadNote = hadNote
        self.hadAmount = hadAmount
    }
}

/// A row or line of an export that cannot be read: where, and why.
public struct TrackerReadError: Error, Sendable, Equatable {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var reason: String
    /// Where in a file without lines (a database's table and row), said instead of the line.
    public var place: String?

    public init(file: String, line: Int, reason: String, place: String? = nil) {
        self.file = file
        self.line = line
        self.reason = reason
        self.place = place
    }

    public var diagnostic: Diagnostic {
        if let place { return .invalidTrackerRecord(file, place: place, reason: reason) }
        return line == 0 ? .unreadableTrackerExport(file, reason: reason) : .invalidTrackerRecord(file, place: "line \(line)", reason: reason)
    }
}

/// Another tracker's export: its habits, read whole (they are few), and its days, read as a
/// stream as often as asked (the import checks them all before it writes any).
public protocol TrackerSource {
    /// "Loop Habit Tracker", "harsh".
    var trackerName: String { get }
    var habits: [TrackerHabit] { get }
    /// Calls `body` with each day in the export's order; stops at the first that cannot be read.
    func forEachDay(_ body: (TrackerDay) throws -> Void) throws
}

/// The checks every reader applies to what it read.
public enum TrackerValues {
    /// `name` as a habit's title: not empty, no NUL (a history text would end there).
    public static func name(_ name: String, file: String, line: Int) throws(TrackerReadError) -> String {
        if name.utf8.contains(0) { throw TrackerReadError(file: file, line: line, reason: "the habit name holds a NUL character") }
        if name.allSatisfy(\.isWhitespace) { throw TrackerReadError(file: file, line: line, reason: "a habit has no name") }
        return name
    }

    /// A note, or nil when empty; refused with a NUL like a name.
    public static func note(_ text: String?, file: String, line: Int) throws(TrackerReadError) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        if text.utf8.contains(0) { throw TrackerReadError(file: file, line: line, reason: "a description holds a NUL character") }
        return text
    }

    /// `YYYY-MM-DD` within the years a history holds.
    public static func date(_ text: Substring, file: String, line: Int) throws(TrackerReadError) -> CalendarDate {
        switch CalendarDate.checked(String(text)) {
        case .success(let date): return date
        case .failure(let problem):
            throw TrackerReadError(file: file, line: line, reason: "'\(Sanitizer.visible(String(text.prefix(40))))' \(problem.reason)")
        }
    }

    /// Loop's day from milliseconds at UTC midnight, within the years a history holds.
    public static func date(milliseconds: Int64, file: String, line: Int) throws(TrackerReadError) -> CalendarDate {
        let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        guard rest == 0 else { throw TrackerReadError(file: file, line: line, reason: "timestamp \(milliseconds) is not a UTC midnight") }
        // Bounded before converting: a day number far out of range would overflow the calendar.
        let date = abs(days) < 1_000_000 ? CalendarDate(dayNumber: Int(days)) : nil
        guard let date, CalendarDate.supportedYears.contains(date.year) else {
            throw TrackerReadError(file: file, line: line, reason: "timestamp \(milliseconds) is outside the years routine supports, 1900 to 2199")
        }
        return date
    }

    /// A Loop value (`Repetitions.value`, a Checkmarks cell) for a yes/no or numeric habit:
    /// -1 unknown; for a yes/no habit 0 not done, 1 done only by the frequency's reckoning
    /// (`YES_AUTO`), 2 done by hand, 3 skipped; for a numeric habit 3 is skipped too (as Loop
    /// reads it, never 0.003) and any other value the amount in thousandths.
    public static func loopMark(_ value: Int64, numeric: Bool, file: String, line: Int) throws(TrackerReadError) -> TrackerMark {
        if value == -1 { return .unknown }
        if value == 3 { return .skipped }
        if numeric {
            guard value >= 0, RecordedValues.amountProblem(Double(value) / 1000) == nil else {
                throw TrackerReadError(file: file, line: line, reason: "the amount \(value) is out of range")
            }
            return .done(Double(value) / 1000)
        }
        switch value {
        case 0: return .notDone
        case 1: return .implied
        case 2: return .done(nil)
        case 3: return .skipped
        default: throw TrackerReadError(file: file, line: line, reason: "the value \(value) is none of Loop's (-1, 0, 1, 2, 3)")
        }
    }
}
