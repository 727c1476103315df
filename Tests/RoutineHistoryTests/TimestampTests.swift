import Testing

@testable import RoutineHistory

struct TimestampTests {
    /// Milliseconds and the text the history stores for them, around the edges the writer
    /// computes by hand: before 1970, leap days, century years, the ends of a day and a year.
    @Test(
        arguments: [
            (0, "1970-01-01T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (-86_400_000, "1969-12-31T00:00:00.000Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (1_795_414_323_120, "2026-11-23T06:12:03.120Z"),
            (1_798_761_599_999, "2026-12-31T23:59:59.999Z"),
            (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
            (7_258_118_399_999, "2199-12-31T23:59:59.999Z"),
            (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        ] as [(Int64, String)])
    func writesTheStoredForm(milliseconds: Int64, text: String) {
        #expect(Timestamp(milliseconds: milliseconds).description == text)
        #expect(Timestamp(text)?.milliseconds == milliseconds)
    }

    /// Every millisecond-exact moment of two centuries reads back as itself, on a stride that
    /// meets every hour, minute and day of the month many times over.
    @Test func readsBackWhatItWrites() {
        var failures: [Int64] = []
        var milliseconds: Int64 = -2_208_988_800_000
        while milliseconds < 7_258_118_400_000, failures.count < 5 {
            if Timestamp(Timestamp(milliseconds: milliseconds).description)?.milliseconds != milliseconds { failures.append(milliseconds) }
            milliseconds += 3_599_999_937
        }
        #expect(failures.isEmpty)
    }
}
