/// A set of days of the week on which a habit is scheduled.
public struct Weekdays: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }

    public static let monday = Weekdays(rawValue: 1 << 0)
    public static let tuesday = Weekdays(rawValue: 1 << 1)
    public static let wednesday = Weekdays(rawValue: 1 << 2)
    public static let thursday = Weekdays(rawValue: 1 << 3)
    public static let friday = Weekdays(rawValue: 1 << 4)
    public static let saturday = Weekdays(rawValue: 1 << 5)
    public static let sunday = Weekdays(rawValue: 1 << 6)
    public static let weekdays = Weekdays(rawValue: 0x1F)
    public static let weekends = Weekdays(rawValue: 0x60)
    public static let everyDay = Weekdays(rawValue: 0x7F)

    /// Short names, Monday first, as the language writes them.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// Every word a schedule accepts.
    public static let names = dayNames + ["weekdays", "weekends"]

    /// The set a schedule word stands for, or nil.
    public static func named(_ name: some StringProtocol) -> Weekdays? {
        if let i = dayNames.firstIndex(where: { $0 == name }) { return Weekdays(rawValue: 1 << UInt8(i)) }
        if name == "weekdays" { return .weekdays }
        if name == "weekends" { return .weekends }
        return nil
    }

    /// The day with ISO weekday number `n` (1 = Monday ... 7 = Sunday).
    public static func isoDay(_ n: Int) -> Weekdays { Weekdays(rawValue: 1 << UInt8((n - 1) % 7)) }

    /// How many days of the week the set holds.
    public var count: Int { rawValue.nonzeroBitCount }

    /// The canonical words for this set: `weekdays` and `weekends` where they fit whole.
    public var words: [String] {
        var rest = self
        var result: [String] = []
        if rest.isSuperset(of: .weekdays) {
            result.append("weekdays")
            rest.subtract(.weekdays)
        }
        var tail: [String] = []
        if rest.isSuperset(of: .weekends) {
            tail.append("weekends")
            rest.subtract(.weekends)
        }
        for (i, name) in Self.dayNames.enumerated() where rest.contains(Weekdays(rawValue: 1 << UInt8(i))) {
            result.append(name)
        }
        return result + tail
    }

    /// The set in words for a sentence: "Mondays, Wednesdays and Fridays", "weekdays and Sundays".
    public var prose: String {
        let plural = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"]
        let parts = words.map { word in Self.dayNames.firstIndex(of: word).map { plural[$0] } ?? word }
        guard parts.count > 1 else { return parts.first ?? "no day" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}

/// Parsing and printing of durations: `90s`, `10m`, `1h30m`.
public enum DurationText {
    /// A day: a routine's habit cannot take longer, and sums over a million nodes stay exact.
    public static let maximumSeconds = 86_400

    public enum Failure: Error, Equatable {
        case malformed, zero, tooLong
        public var reason: String {
            switch self {
            case .malformed: "expected a number followed by 'h', 'm' or 's'"
            case .zero: "a duration must be longer than zero"
            case .tooLong: "a habit can last at most 24h"
            }
        }
    }

    /// The unit letter for a spelled-out unit (`minutes` -> `m`), to suggest the short form.
    static func unitLetter(for word: Substring) -> String? {
        switch word.lowercased() {
        case "h", "hr", "hrs", "hour", "hours": "h"
        case "m", "min", "mins", "minute", "minutes": "m"
        case "s", "sec", "secs", "second", "seconds": "s"
        default: nil
        }
    }

    /// Seconds in `text`; units in the order h, m, s, each at most once.
    public static func parse(_ text: Substring) -> Result<Int, Failure> {
        var total = 0
        var number = 0
        var digits = 0
        var lastUnit = 0  // 0 none, 3 h, 2 m, 1 s: units must decrease
        var overflow = false
        for ch in text.utf8 {
            if ch >= 0x30 && ch <= 0x39 {
                if digits < 12 { number = number * 10 + Int(ch - 0x30) } else { overflow = true }
                digits += 1
                continue
            }
            let (unit, factor): (Int, Int) =
                switch ch {
                case UInt8(ascii: "h"): (3, 3600)
                case UInt8(ascii: "m"): (2, 60)
                case UInt8(ascii: "s"): (1, 1)
                default: (0, 0)
                }
            guard unit != 0, digits > 0, lastUnit == 0 || unit < lastUnit else { return .failure(.malformed) }
            lastUnit = unit
            total += number * factor
            number = 0
            digits = 0
        }
        guard digits == 0, lastUnit != 0 else { return .failure(.malformed) }
        if overflow || total > maximumSeconds { return .failure(.tooLong) }
        if total == 0 { return .failure(.zero) }
        return .success(total)
    }

    /// The canonical text: `1h30m`, `45s`, `2h`.
    public static func format(_ seconds: Int) -> String {
        let h = seconds / 3600
        let m = seconds % 3600 / 60
        let s = seconds % 60
        var text = ""
        if h > 0 { text += "\(h)h" }
        if m > 0 { text += "\(m)m" }
        if s > 0 || text.isEmpty { text += "\(s)s" }
        return text
    }

    /// The one form people see, in runs, paths, drawings and summaries: `1h 30m`, `0s`.
    /// Files keep the language's own form, ``format(_:)``.
    public static func human(_ seconds: Int) -> String {
        let h = seconds / 3600
        let m = seconds % 3600 / 60
        let s = seconds % 60
        // Built in place: `log` writes one per run, ten years of them.
        var text = h > 0 ? "\(h)h" : ""
        if m > 0 { text += (text.isEmpty ? "" : " ") + "\(m)m" }
        if s > 0 { text += (text.isEmpty ? "" : " ") + "\(s)s" }
        return text.isEmpty ? "0s" : text
    }
}
