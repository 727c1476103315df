/// Where a habit's record of a day came from: a step of a run, or a log made outside a run
/// (`routine done`, `routine amend`).
public enum EntrySource: String, Sendable, Hashable {
    case run, log
}

/// One habit step recorded on a day, as the day's rules read it.
public struct DayEntry: Sendable, Hashable {
    public var node: Int
    public var result: RecordedStep.Result
    public var value: Double?
    public var seconds: Double
    public var source: EntrySource
    /// The local clock time it was decided, `07:12`.
    public var time: String

    public init(node: Int, result: RecordedStep.Result, value: Double? = nil, seconds: Double = 0, source: EntrySource, time: String) {
        self.node = node
        self.result = result
        self.value = value
        self.seconds = seconds
        self.source = source
        self.time = time
    }
}

/// Everything the history says about one routine's day that the day's rules need: the day's
/// habit steps (runs and logs, in the order recorded) and the week so far.
public struct DayFacts: Sendable {
    public var date: CalendarDate
    /// The day's habit steps, oldest first; steps of nodes the routine no longer has are left out.
    public var entries: [DayEntry]
    /// Whether a run (not a log) was made that day, and whether one of them completed.
    public var hadRun: Bool
    public var runCompleted: Bool
    /// On how many days of the date's ISO week before the date each habit was done, by node.
    public var doneEarlierThisWeek: [Int: Int]
    /// When the day's newest run stopped before the end: the nodes it can still reach from
    /// where it stopped (the answers given rule the others out). Nil otherwise.
    public var stillReachable: Set<Int>?
    /// Whether every node in ``stillReachable`` is certain to come: no question and no arrow to
    /// `end` is left among them.
    public var reachableAreCertain = false
    /// The routine's day off on that date (`routine off`): nothing is due. Nil on an ordinary day.
    public var dayOff: DayOffNote?
    /// Habits an amended answer now leads to and nobody recorded: due, as the statistics count
    /// them missed once the day is over (a run's steps off the amended way are left out of
    /// ``entries``, as the statistics leave them out).
    public var ledToByAmendedAnswers: Set<Int> = []

    public init(date: CalendarDate, entries: [DayEntry] = [], hadRun: Bool = false, runCompleted: Bool = false, doneEarlierThisWeek: [Int: Int] = [:])
    {
        self.date = date
        self.entries = entries
        self.hadRun = hadRun
        self.runCompleted = runCompleted
        self.doneEarlierThisWeek = doneEarlierThisWeek
    }
}

/// A day off as the day's rules see it: that it is one, and why when a reason was given.
public struct DayOffNote: Sendable, Hashable {
    public var reason: String?

    public init(reason: String?) { self.reason = reason }

    /// "day off (sick)", or "day off" without a reason: what every view says of the day.
    public var text: String { "day off" + (reason.map { " (" + $0 + ")" } ?? "") }
}

/// A habit already done (or skipped) on a day: by what, and when.
public struct Completion: Sendable, Hashable {
    public var source: EntrySource
    public var time: String
    public var value: Double?
    public var seconds: Double

    public init(source: EntrySource, time: String, value: Double? = nil, seconds: Double = 0) {
        self.source = source
        self.time = time
        self.value = value
        self.seconds = seconds
    }

    /// "07:12 (logged)" or "07:12 (in a run)".
    public var text: String { time + (source == .log ? " (logged)" : " (in a run)") }
}

/// Why a run passed over a habit on one of its days: a log or an earlier run had done it.
public enum PassReason: String, Sendable, Hashable {
    case doneByLog = "done-by-log"
    case doneByRun = "done-by-run"
}
