import Foundation
import Testing

/// `routine off`: recording days off and undoing them, what `log`, `stats` and `check` say of
/// them, and `history export`/`import` carrying them byte for byte.
@Suite(.serialized)
struct DaysOffTests {
    static let routine = """
        routine "Day"
        habit tea "Tea" -> mood
        question mood "How?"
          "Good" -> run
          "Sick" -> end
        habit run "Run"

        """

    /// A folder with `day.rt` and runs on 2026-11-02, 11-03 and 11-06.
    private func recorded() throws -> URL {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("day.rt"), atomically: true, encoding: .utf8)
        for date in ["2026-11-02", "2026-11-03", "2026-11-06"] {
            let result = try execute(["run", "day.rt", "--date", date, "--history", "h.sqlite", "--answers", "-"], stdin: "d\n1\nd\n", in: dir)
            #expect(result.status == 0, "\(date): \(result.stderr)")
        }
        return dir
    }

    private func off(_ arguments: [String], in dir: URL) throws -> Execution {
        try execute(["off"] + arguments + ["--history", "h.sqlite"], in: dir)
    }

    @Test func daysOffAreRecordedListedAndUndone() throws {
        let dir = try recorded()
        let added = try off(["day.rt", "2026-11-04", "--until", "2026-11-05", "--reason", "sick"], in: dir)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr == "recorded 2 days off of 'Day' (2026-11-04 to 2026-11-05)\n")
        let again = try off(["day.rt", "2026-11-05"], in: dir)
        #expect(again.stderr == "recorded 0 days off of 'Day' (2026-11-05); 1 was already off\n")
        let list = try off(["day.rt", "--list"], in: dir)
        #expect(list.stdout == "2026-11-04  Wed  day off (sick)\n2026-11-05  Thu  day off (sick)\n")
        let stats = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06", "--csv"], in: dir)
        #expect(stats.stdout.contains("2026-11-04,tea,not-due"), "a day off is not missed: \(stats.stdout)")
        #expect(stats.stdout.contains("2026-11-05,run,not-due"), "nor unknown")
        let table = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06"], in: dir)
        #expect(table.stdout.hasPrefix("Day · 2026-11-02 to 2026-11-06 · 5 days, 3 with records, 2 off\n"), "\(table.stdout)")
        let log = try execute(["log", "day.rt", "--history", "h.sqlite"], in: dir)
        #expect(log.stdout.hasSuffix("\n2026-11-05  Thu  day off (sick)\n2026-11-04  Wed  day off (sick)\n"), "\(log.stdout)")
        let undo = try off(["day.rt", "2026-11-05", "--undo"], in: dir)
        #expect(undo.stderr == "removed 1 day off of 'Day' (2026-11-05)\n")
        let after = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06", "--csv"], in: dir)
        #expect(after.stdout.contains("2026-11-05,tea,missed"), "undone: missed again")
        #expect(after.stdout.contains("2026-11-04,tea,not-due"))
        let nothing = try off(["day.rt", "2026-11-05", "--undo"], in: dir)
        #expect(nothing.status == 0)
        #expect(nothing.stderr == "no days off of 'Day' on 2026-11-05\n")
    }

    @Test(arguments: [
        (["day.rt"], "give FILE and DATE, or --list"),
        (["day.rt", "2026-11-31"], "is not a date"),
        (["day.rt", "2026-11-05", "--until", "2026-11-04"], "--until 2026-11-04 comes before 2026-11-05"),
        (["day.rt", "2026-01-01", "--until", "2027-06-01"], "at most 366 days at once"),
        (["day.rt", "2026-11-05", "--undo", "--reason", "x"], "--undo takes no --reason"),
        (["day.rt", "2026-11-05", "--list"], "--list takes only FILE"),
        (["day.rt", "2026-11-05", "--reason", "sick\n2026-11-06  Fri  day off (fake)"], "--reason holds the control character \\u{A}"),
        (["day.rt", "2026-11-05", "--reason", "flu\r"], "--reason holds the control character \\u{D}"),
        (["day.rt", "2026-11-05", "--reason", "\u{1B}[2Kflu"], "--reason holds the control character \\u{1B}"),
        (["day.rt", "2026-11-05", "--reason", "flu\u{202E}"], "--reason holds the control character \\u{202E}"),
    ])
    func mistakesAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let dir = try recorded()
        let result = try off(arguments, in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func exportAndImportCarryDaysOffByteForByte() throws {
        let dir = try recorded()
        _ = try off(["day.rt", "2026-11-04", "--reason", "flu \"bad\""], in: dir)
        _ = try off(["day.rt", "2026-11-05"], in: dir)
        let first = try execute(["history", "export", "--history", "h.sqlite"], in: dir)
        #expect(first.stdout.contains("{\"dayOff\":\"2026-11-05\",\"routine\":\"Day\",\"reason\":null,\"recorded\":"))
        try first.stdout.write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        let imported = try execute(["history", "import", "e.jsonl", "--history", "copy.sqlite"], in: dir)
        #expect(imported.stderr == "imported 3 runs and 2 days off into 'copy.sqlite'\n")
        let second = try execute(["history", "export", "--history", "copy.sqlite"], in: dir)
        #expect(second.stdout == first.stdout)
        let twice = try execute(["history", "import", "e.jsonl", "--history", "copy.sqlite"], in: dir)
        #expect(twice.stderr == "imported 0 runs and 0 days off into 'copy.sqlite'; 3 were already there\n")
    }

    @Test func anImportedDayOffThatIsNotOneIsRefused() throws {
        let dir = try temporaryDirectory()
        try "{\"dayOff\":\"2026-13-01\",\"routine\":\"Day\",\"reason\":null,\"recorded\":\"2026-11-25T01:00:00.000Z\"}\n"
            .write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        let result = try execute(["history", "import", "e.jsonl", "--history", "h.sqlite"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("'dayOff' '2026-13-01' is not a date"), "\(result.stderr)")
    }

    /// A reason with a line break is refused on import, and one that an old history holds (written
    /// straight into the table) is listed escaped, on one line.
    @Test func aReasonWithALineBreakIsRefusedOnImportAndShownEscaped() throws {
        let dir = try recorded()
        try
            "{\"dayOff\":\"2026-11-04\",\"routine\":\"Day\",\"reason\":\"sick\\n2026-11-05  Thu  day off (fake)\",\"recorded\":\"2026-11-25T01:00:00.000Z\"}\n"
            .write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        let refused = try execute(["history", "import", "e.jsonl", "--history", "h.sqlite"], in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("'reason' holds the control character \\u{A}"), "\(refused.stderr)")
        #expect(try off(["day.rt", "--list"], in: dir).stdout == "no days off of 'Day'\n")

        #expect(try off(["day.rt", "2026-11-04", "--reason", "sick"], in: dir).status == 0)
        let forged = try shell("sqlite3 h.sqlite \"UPDATE dayOff SET reason = 'sick' || char(10) || '2026-11-05  Thu  day off (fake)'\"", in: dir)
        try #require(forged.status == 0, "\(forged.stderr)")
        let list = try off(["day.rt", "--list"], in: dir)
        #expect(list.stdout == "2026-11-04  Wed  day off (sick\\u{A}2026-11-05  Thu  day off (fake))\n", "\(list.stdout)")
        let log = try execute(["log", "day.rt", "--history", "h.sqlite"], in: dir)
        #expect(log.stdout.hasSuffix("\n2026-11-04  Wed  day off (sick\\u{A}2026-11-05  Thu  day off (fake))\n"), "\(log.stdout)")
    }

    @Test func checkNotesASickOptionToEnd() throws {
        let dir = try recorded()
        let result = try execute(["check", "day.rt"], in: dir)
        #expect(result.status == 0, "a note, not an error")
        #expect(result.stderr.contains("note[N001]: option \"Sick\" of question 'mood' only leads to 'end'"), "\(result.stderr)")
        #expect(result.stderr.contains("'routine off FILE DATE'"))
    }
}
