/// A habit or a question in a routine.
public struct RoutineNode: Sendable {
    public enum Kind: String, Sendable { case habit, question }

    public var kind: Kind
    public var id: String
    /// A habit's title or a question's prompt.
    public var title: String
    public var note: String?
    /// A timed habit's duration in seconds.
    public var duration: Int?
    /// A numeric habit's target; the run asks for a value.
    public var target: TargetValue?
    /// The days a habit is scheduled on; `nil` means every day.
    public var days: Weekdays?
    /// How many times a week the habit is due (`3 per week`); `nil` when not a quota.
    public var perWeek: Int?
    /// A question's answers, in order.
    public var options: [QuestionOption]
    /// A habit's targets, or a question's gather: where it goes after the chosen option's targets.
    public var next: [Edge]

    public var idSpan: Span
    public var titleSpan: Span
    /// The arrow of ``next``, when it has one.
    public var arrowSpan: Span?
    /// The days list, for schedule diagnostics.
    public var daysSpan: Span?
    /// The note's text, so the formatter keeps comments on its line.
    public var noteSpan: Span?

    public init(
        kind: Kind, id: String, title: String, note: String? = nil, duration: Int? = nil, target: TargetValue? = nil,
        days: Weekdays? = nil, options: [QuestionOption] = [], next: [Edge] = [], idSpan: Span = Span(at: 0),
        titleSpan: Span = Span(at: 0), arrowSpan: Span? = nil, daysSpan: Span? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.note = note
        self.duration = duration
        self.target = target
        self.days = days
        self.options = options
        self.next = next
        self.idSpan = idSpan
        self.titleSpan = titleSpan
        self.arrowSpan = arrowSpan
        self.daysSpan = daysSpan
    }

    // Always inlined: called on a node in an array, a getter can make the caller copy the
    // whole node (retaining every part) just to read its kind.
    @inline(__always) public var isHabit: Bool { kind == .habit }
    @inline(__always) public var isQuestion: Bool { kind == .question }
}

/// One answer of a question and where it leads.
public struct QuestionOption: Sendable {
    public var text: String
    public var next: [Edge]
    public var textSpan: Span
    public var arrowSpan: Span?

    public init(text: String, next: [Edge] = [], textSpan: Span = Span(at: 0), arrowSpan: Span? = nil) {
        self.text = text
        self.next = next
        self.textSpan = textSpan
        self.arrowSpan = arrowSpan
    }
}

/// A numeric habit's goal: a positive amount and an optional unit ("8 glasses"), to reach
/// or, with ``atMost``, not to exceed ("at most 2 cups").
public struct TargetValue: Hashable, Sendable {
    /// Large enough for any count a person tracks, small enough that sums stay exact in a `Double`.
    public static let maximum = 1_000_000_000.0
    static let maximumText = "1000000000"

    public var amount: Double
    public var unit: String?
    /// A limit rather than a goal: a day is met when the amount stays at or under it.
    public var atMost: Bool

    public init(amount: Double, unit: String? = nil, atMost: Bool = false) {
        self.amount = amount
        self.unit = unit
        self.atMost = atMost
    }

    /// The amount as written canonically: no trailing `.0`.
    public var amountText: String { NumberText.format(amount) }

    /// The amount with its bound, as `.rt` writes it after `target`: `8`, `at most 2`.
    public var boundText: String { atMost ? "at most " + amountText : amountText }

    /// Whether `value` meets the target: reaches it, or for a limit stays at or under it.
    public func isMet(by value: Double) -> Bool { atMost ? value <= amount : value >= amount }

    /// How much of the target `value` achieves, 0...1: the share reached; for a limit, 1 at
    /// or under it, falling to 0 at twice the limit (as Loop Habit Tracker scores it).
    public func achievement(of value: Double) -> Double {
        // A limit of 0 ("no smoking"): whole at 0, none above it.
        guard amount > 0 else { return value <= amount ? 1 : 0 }
        return atMost ? min(1, max(0, 2 - value / amount)) : min(1, value / amount)
    }
}

/// Canonical text for the numbers a routine holds.
public enum NumberText {
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Parses `digits[.digits]`; nil for anything else, including exponents, signs and overflow.
    public static func parse(_ text: Substring) -> Double? {
        var sawDigit = false
        var sawDot = false
        var lastWasDot = false
        for ch in text.utf8 {
            if ch >= 0x30 && ch <= 0x39 {
                sawDigit = true
                lastWasDot = false
            } else if ch == 0x2E && !sawDot && sawDigit {
                sawDot = true
                lastWasDot = true
            } else {
                return nil
            }
        }
        guard sawDigit, !lastWasDot, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
