#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A day in the proleptic Gregorian calendar, as a run's date.
public struct CalendarDate: Hashable, Sendable, CustomStringConvertible {
    // Eight bytes, not twenty-four: statistics keep one date per habit and day, ten years of them.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// Parses `YYYY-MM-DD`, refusing days that do not exist (`2026-02-30`).
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ $0.count == 10 ? Self.parse($0) : nil }) else { return nil }
        self.init(year: parsed.0, month: parsed.1, day: parsed.2)
    }

    /// Digits and dashes read in place: a history lists thousands of dates.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for k in range {
                let digit = Int(bytes[k]) - 0x30
                guard digit >= 0, digit <= 9 else { return nil }
                n = n * 10 + digit
            }
            return n
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let y = number(0..<4), let m = number(5..<7),
            let d = number(8..<10), (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y)
        else { return nil }
        return (y, m, d)
    }

    /// The years a date may have where it enters (`run --date`, `--since`, `--until`, an
    /// imported run): wide enough for any life's records, narrow enough that a span of days
    /// stays small.
    public static let supportedYears = 1900...2199

    /// `text` as a date within ``supportedYears``, or why it is not one (said after the value).
    public static func checked(_ text: String) -> Result<CalendarDate, DateProblem> {
        guard let date = CalendarDate(text) else { return .failure(DateProblem(reason: "is not a date: use YYYY-MM-DD, such as 2026-11-23")) }
        guard supportedYears.contains(date.year) else {
            return .failure(
                DateProblem(reason: "is outside the years routine supports, \(supportedYears.lowerBound) to \(supportedYears.upperBound)"))
        }
        return .success(date)
    }

    /// Why a text is not a supported date.
    public struct DateProblem: Error, Equatable, Sendable {
        public let reason: String
    }

    public init(year: Int, month: Int, day: Int) {
        storedYear = Int32(truncatingIfNeeded: year)
        storedMonth = UInt8(truncatingIfNeeded: month)
        storedDay = UInt8(truncatingIfNeeded: day)
    }

    /// Today in local time.
    public static func today() -> CalendarDate {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// ISO weekday: 1 Monday ... 7 Sunday (Sakamoto's method).
    public var isoWeekday: Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        // 400 years later is the same weekday (146,097 days), and keeps January and February
        // of year 0 from dividing a negative year.
        let y = (month < 3 ? year - 1 : year) + 400
        let sundayBased = (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
        return sundayBased == 0 ? 7 : sundayBased
    }

    public var weekday: Weekdays { .isoDay(isoWeekday) }

    public var weekdayName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][isoWeekday - 1]
    }

    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// How many days `month` (1 to 12) of `year` has.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
