/// The rules every value in a history follows, whether the runner records an answer or
/// `history import` reads a line: one place, so that no history holds what no run could have
/// recorded. Each check returns why a value is refused ("must be …"), or nil.
public enum RecordedValues {
    /// The longest a step may be recorded to have taken: a year.
    public static let maximumSeconds = 31_622_400.0

    /// An amount done at a habit with a target.
    public static func amountProblem(_ value: Double) -> String? {
        value.isFinite && value >= 0 && value <= TargetValue.maximum ? nil : "must be a number from 0 to \(TargetValue.maximumText)"
    }

    /// A habit's target, as the language allows it.
    public static func targetProblem(_ value: Double) -> String? {
        value.isFinite && value > 0 && value <= TargetValue.maximum ? nil : "must be a number above 0, at most \(TargetValue.maximumText)"
    }

    /// The seconds a step took.
    public static func secondsProblem(_ value: Double) -> String? {
        value.isFinite && value >= 0 && value <= maximumSeconds
            ? nil : "must be a number of seconds from 0 to \(Int(maximumSeconds)) (a year)"
    }

    /// A name, title or option: SQLite's text ends at a NUL, so one would cut the text short.
    public static func textProblem(_ text: String) -> String? {
        text.utf8.contains(0) ? "holds a NUL character (\\u0000), which a history cannot keep" : nil
    }

    /// A day off's reason: one line of text, so that a listing of days off cannot be made to show
    /// another entry (a line break) or hide part of itself (a control or bidi character).
    public static func reasonProblem(_ text: String) -> String? {
        guard let bad = text.unicodeScalars.first(where: Sanitizer.isUnsafe) else { return nil }
        return "holds the control character \(Sanitizer.visible(String(bad))), which a reason must not: it is one line of text"
    }
}
