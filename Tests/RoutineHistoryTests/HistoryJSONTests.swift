import RoutineKit
import Testing

@testable import RoutineHistory

struct HistoryJSONTests {
    static let run = StoredRun(
        routine: "Morning \"☀️\"", path: "/home/a/morning.rt", sourceHash: "fnv1a64:0123456789abcdef", date: "2026-11-23",
        startedAt: Timestamp("2026-11-23T06:12:03.120Z")!, utcOffset: 3600, endedAt: Timestamp("2026-11-23T06:40:00.000Z")!,
        result: .completed, reachedEnd: true,
        steps: [
            StoredStep(
                decision: RecordedStep(step: 1, node: "water", kind: .habit, result: .done, value: 7.25), title: "Drink, \"now\"\n",
                target: 8, unit: "glasses", decidedAt: Timestamp("2026-11-23T06:12:44.321Z")!, seconds: 41.201),
            StoredStep(
                decision: RecordedStep(step: 2, node: "mood", kind: .question, result: .answered, option: 2, optionText: "😀 Great!"),
                title: "Mood?", decidedAt: Timestamp("2026-11-23T06:13:00.000Z")!, seconds: 15.679),
            StoredStep(
                decision: RecordedStep(step: 3, node: "run", kind: .habit, result: .notScheduled), title: "Run",
                decidedAt: Timestamp("2026-11-23T06:13:00.000Z")!, seconds: nil),
        ])

    @Test func aRunSurvivesTheRoundTrip() throws {
        let line = HistoryJSON.encode(Self.run).text
        #expect(
            line.hasPrefix(
                #"{"date":"2026-11-23","routine":"Morning \"☀️\"","result":"completed","reachedEnd":true,"started":"2026-11-23T06:12:03.120Z""#))
        #expect(line.contains(#"{"step":2,"node":"mood","kind":"question","title":"Mood?","result":"answered","option":"😀 Great!","index":3,"#))
        #expect(try HistoryJSON.decode(line.utf8) == Self.run)
        var unfinished = Self.run
        unfinished.result = nil
        unfinished.endedAt = nil
        let text = HistoryJSON.encode(unfinished).text
        #expect(text.contains(#""result":"unfinished""#) && text.contains(#""ended":null"#))
        #expect(try HistoryJSON.decode(text.utf8) == unfinished)
    }

    /// A step nobody timed is `"seconds":null`, not 0; an export from before, with a number
    /// on every step, keeps its numbers, and a line without `seconds` reads as unknown.
    @Test func unknownSecondsAreNull() throws {
        let line = HistoryJSON.encode(Self.run).text
        #expect(line.contains(#""title":"Run","result":"not-scheduled","at":"2026-11-23T06:13:00.000Z","seconds":null}"#))
        let older = line.replacingOccurrences(of: #""seconds":null"#, with: #""seconds":0.001"#)
        #expect(try HistoryJSON.decode(older.utf8).steps.map(\.seconds) == [41.201, 15.679, 0.001])
        let without = line.replacingOccurrences(of: #","seconds":null"#, with: "")
        #expect(try HistoryJSON.decode(without.utf8).steps.map(\.seconds) == [41.201, 15.679, nil])
    }

    @Test func importingTwiceAddsNothing() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        #expect(try store.insertRuns([Self.run]) == 1)
        #expect(try store.insertRuns([Self.run]) == 0)
        var stored = try #require(try store.runs(RunFilter()).first)
        stored.id = nil
        #expect(stored == Self.run)
    }

    static let badLines: [(String, String)] = [
        ("not json", "not JSON"),
        ("[1, 2]", "the line must be an object"),
        (#"{"date":"2026-11-23"}"#, "'routine' is missing"),
        (
            #"{"date":"2026-13-01","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[]}"#,
            "'date' '2026-13-01' is not a date: use YYYY-MM-DD, such as 2026-11-23"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"won","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[]}"#,
            "'result' is not completed, quit, incomplete, interrupted or unfinished: 'won'"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"yesterday","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[]}"#,
            "'started' is not a UTC time such as 2026-11-23T06:12:03.120Z"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":1,"steps":[]}"#,
            "'reachedEnd' must be true or false"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[{"step":2,"node":"a","kind":"habit","title":"A","result":"done","at":"2026-11-23T06:12:03.120Z"}]}"#,
            "the steps are not numbered 1, 2, 3 and so on"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[{"step":1,"node":"a","kind":"habit","title":"A","result":"answered","at":"2026-11-23T06:12:03.120Z"}]}"#,
            "step 1: a habit cannot have the result 'answered'"
        ),
        (
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false,"steps":[{"step":1,"node":"a","kind":"habit","title":"A","result":"done","value":"7","at":"2026-11-23T06:12:03.120Z"}]}"#,
            "step 1: 'value' must be a number"
        ),
    ]

    @Test(arguments: badLines)
    func aBadLineSaysWhatIsWrong(_ line: String, _ reason: String) {
        #expect(throws: ImportProblem(reason)) { try HistoryJSON.decode(line.utf8) }
    }

    @Test(arguments: [
        ("2026-11-23T06:12:03.120Z", "2026-11-23T06:12:03.120Z"), ("2026-11-23T06:12:03Z", "2026-11-23T06:12:03.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"), ("2024-02-29T12:00:00Z", "2024-02-29T12:00:00.000Z"),
        ("2026-12-31T23:59:60Z", "2027-01-01T00:00:00.000Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
    ])
    func timestampsReadBackAsWritten(_ text: String, _ canonical: String) throws {
        #expect(try #require(Timestamp(text)).description == canonical)
    }

    @Test(arguments: [
        "", "2026-11-23", "2026-11-23T06:12:03.12Z", "2026-11-23T25:00:00Z", "2026-11-23 06:12:03Z", "2026-02-29T06:00:00Z",
        "2026-04-31T06:00:00Z", "2026-11-23T06:12:03.120+", "2026-1a-23T06:12:03Z",
    ])
    func malformedTimestampsAreRefused(_ text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test(arguments: [
        ("2026-11-23T06:12:03.120Z", 0, "06:12"), ("2026-11-23T23:30:00Z", 3600, "00:30"), ("2026-11-23T03:00:00Z", -19800, "21:30"),
        ("1969-12-31T23:59:59.999Z", 0, "23:59"), ("1969-12-31T23:59:59.999Z", 3600, "00:59"), ("1970-01-01T00:00:00Z", -60, "23:59"),
    ])
    func clockTimesAreLocal(_ text: String, _ offset: Int, _ clock: String) throws {
        #expect(try #require(Timestamp(text)).clockTime(offset: offset) == clock)
    }

    @Test(arguments: [(3600, "+01:00"), (-19800, "-05:30"), (0, "+00:00"), (20700, "+05:45")])
    func offsetsReadBackAsWritten(_ seconds: Int, _ text: String) {
        #expect(offsetText(seconds) == text)
        #expect(parseOffset(text) == seconds)
    }

    @Test func csvQuotesWhatNeedsQuoting() {
        let rows = HistoryCSV.rows(Self.run)
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == HistoryCSV.header.count })
        #expect(HistoryCSV.line(["a", "b,c", "say \"hi\"", "x\ny"]) == "a,\"b,c\",\"say \"\"hi\"\"\",\"x\ny\"\r\n")
    }
    @Test(arguments: [("a run", RunKind.run), ("a log", RunKind.log)])
    func csvSaysWhetherARowIsARunOrALog(_ name: String, _ kind: RunKind) {
        var run = Self.run
        run.kind = kind
        #expect(HistoryCSV.header.last == "run_kind")
        #expect(HistoryCSV.rows(run).allSatisfy { $0.last == kind.rawValue })
        run.steps = []
        #expect(HistoryCSV.rows(run) == [HistoryCSV.rows(run)[0]] && HistoryCSV.rows(run)[0].last == kind.rawValue)
        #expect(HistoryCSV.rows(run)[0].count == HistoryCSV.header.count)
    }
}
