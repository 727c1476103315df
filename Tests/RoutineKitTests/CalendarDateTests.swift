import Testing

@testable import RoutineKit

struct CalendarDateTests {
    @Test(arguments: [
        ("2026-11-23", 2026, 11, 23, "Monday"), ("2024-02-29", 2024, 2, 29, "Thursday"), ("2000-02-29", 2000, 2, 29, "Tuesday"),
        ("1970-01-01", 1970, 1, 1, "Thursday"), ("9999-12-31", 9999, 12, 31, "Friday"),
    ])
    func readsRealDays(_ text: String, _ year: Int, _ month: Int, _ day: Int, _ weekday: String) throws {
        let date = try #require(CalendarDate(text))
        #expect(date == CalendarDate(year: year, month: month, day: day))
        #expect(date.weekdayName == weekday)
        #expect(date.description == text)
    }

    @Test(arguments: [
        "", "2026-11-2", "2026-11-233", "2026/11/23", "2026-13-01", "2026-00-10", "2026-11-00", "2026-02-29", "1900-02-29",
        "2026-04-31", "20x6-11-23", "2026-1a-23", "+026-11-23", "2026-11-2\u{1F600}", "２０２６-11-23",
    ])
    func refusesWhatIsNotADay(_ text: String) {
        #expect(CalendarDate(text) == nil)
    }

    /// One check where a date enters (`run --date`, `--since`, `--until`, an import): a date,
    /// and a year from 1900 to 2199.
    @Test(
        arguments: [
            ("first day", "1900-01-01", nil), ("last day", "2199-12-31", nil), ("today's kind", "2026-11-23", nil),
            ("a day before", "1899-12-31", "outside the years routine supports, 1900 to 2199"),
            ("a day after", "2200-01-01", "outside the years routine supports, 1900 to 2199"),
            ("year zero", "0000-01-01", "outside the years routine supports, 1900 to 2199"),
            ("the last year of four digits", "9999-12-31", "outside the years routine supports, 1900 to 2199"),
            ("not a day", "2026-02-30", "is not a date: use YYYY-MM-DD"), ("not a date", "tomorrow", "is not a date: use YYYY-MM-DD"),
        ] as [(String, String, String?)])
    func datesEnterWithinTheSupportedYears(_ name: String, _ text: String, _ refusal: String?) {
        switch CalendarDate.checked(text) {
        case .success(let date):
            #expect(refusal == nil && date.description == text, "\(name)")
        case .failure(let problem):
            #expect(refusal.map { problem.reason.contains($0) } == true, "\(name): \(problem.reason)")
        }
    }
}

/// How far ahead a run may be dated: tomorrow is ordinary, a day more warns, past the same
/// day next year is refused.
struct RunDateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String, today: String, date: String, expected: RunDate
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "the past", today: "2026-11-25", date: "2020-01-06", expected: .ordinary),
        Case(name: "today", today: "2026-11-25", date: "2026-11-25", expected: .ordinary),
        Case(name: "tomorrow", today: "2026-11-25", date: "2026-11-26", expected: .ordinary),
        Case(name: "two days ahead", today: "2026-11-25", date: "2026-11-27", expected: .ahead(days: 2)),
        Case(name: "a year ahead to the day", today: "2026-11-25", date: "2027-11-25", expected: .ahead(days: 365)),
        Case(name: "a year and a day", today: "2026-11-25", date: "2027-11-26", expected: .tooFarAhead(days: 366)),
        Case(name: "36 years", today: "2026-11-25", date: "2062-11-20", expected: .tooFarAhead(days: 13_144)),
        Case(name: "from a leap day", today: "2028-02-29", date: "2029-02-28", expected: .ahead(days: 365)),
        Case(name: "from a leap day, a day past", today: "2028-02-29", date: "2029-03-01", expected: .tooFarAhead(days: 366)),
    ])
    func howFarAhead(_ c: Case) {
        #expect(RunDate(CalendarDate(c.date)!, today: CalendarDate(c.today)!) == c.expected)
    }
}
