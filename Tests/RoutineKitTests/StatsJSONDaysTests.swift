import Testing

@testable import RoutineKit

/// `stats --json` writes each habit's days as bytes, without a `JSONValue` per day: the text
/// must stay what `JSONValue` gives, numbers to four decimals included.
struct StatsJSONDaysTests {
    @Test(arguments: [
        ("nothing recorded", HabitDay(date: CalendarDate(year: 2026, month: 11, day: 23), status: .missed)),
        ("a value and seconds", HabitDay(date: CalendarDate(year: 2026, month: 1, day: 5), status: .done, value: 12.5, seconds: 61.23456)),
        ("a long fraction", HabitDay(date: CalendarDate(year: 1900, month: 12, day: 31), status: .skipped, value: 1.0 / 3, seconds: 0.00004)),
        ("a whole number", HabitDay(date: CalendarDate(year: 2199, month: 2, day: 9), status: .done, value: 20, seconds: 86_400)),
        ("not due", HabitDay(date: CalendarDate(year: 2030, month: 10, day: 10), status: .notDue)),
        ("unknown", HabitDay(date: CalendarDate(year: 987, month: 6, day: 7), status: .unknown, value: 1e15)),
        ("ten-thousandths", HabitDay(date: CalendarDate(year: 2026, month: 3, day: 1), status: .done, value: 0.0001, seconds: 0.00049)),
        ("zeros inside", HabitDay(date: CalendarDate(year: 2026, month: 3, day: 2), status: .done, value: 7.0501, seconds: 3.1)),
        ("large", HabitDay(date: CalendarDate(year: 2026, month: 3, day: 3), status: .done, value: 98_765_432_109.8765, seconds: 123_456.789)),
        ("negative", HabitDay(date: CalendarDate(year: 2026, month: 3, day: 4), status: .done, value: -2.5, seconds: -0.0002)),
        ("huge", HabitDay(date: CalendarDate(year: 2026, month: 3, day: 5), status: .done, value: 1.5e300, seconds: 99_999_999_999.99995)),
    ])
    func aDayIsWrittenAsJSONValueWritesIt(_ name: String, day: HabitDay) {
        let expected = JSONValue.object([
            ("date", .string(day.date.description)), ("status", .string(day.status.rawValue)),
            ("value", StatsJSON.number(day.value)), ("seconds", StatsJSON.number(day.seconds)),
        ]).text
        var out = ByteWriter()
        StatsJSON.write([day, day], into: &out)
        #expect(out.text == expected + "," + expected)
    }
}
