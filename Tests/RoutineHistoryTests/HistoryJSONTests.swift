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

    /// Runs in every form a line can take: a plain run, a log, amounts and targets, answers,
    /// both kinds of amendment, passed-over steps, and texts with escapes.
    static let forms: [StoredRun] = {
        let at = Timestamp("2026-11-23T06:12:03.120Z")!
        var plain = StoredRun(
            routine: "Morning", path: "/r/m.rt", sourceHash: "fnv1a64:00", date: "2026-11-23", startedAt: at, utcOffset: -19800, endedAt: at,
            result: .quit, reachedEnd: false)
        plain.steps = [
            StoredStep(
                decision: RecordedStep(step: 1, node: "water", kind: .habit, result: .done, value: 0.5), title: "Water", target: 1e6,
                unit: "l", decidedAt: at, seconds: 0.001),
            StoredStep(
                decision: RecordedStep(step: 2, node: "mood", kind: .question, result: .answered, option: 0, optionText: "Fine"),
                title: "Mood", decidedAt: at, seconds: 12),
            StoredStep(
                decision: RecordedStep(step: 3, node: "run", kind: .habit, result: .notScheduled), title: "Run", decidedAt: at, seconds: nil,
                reason: .doneByLog),
        ]
        var amended = plain
        amended.amendments = [
            Amendment(step: 1, madeAt: at, added: false, before: Amendment.Before(result: .skipped, value: 2, seconds: 1.5)),
            Amendment(step: 2, madeAt: at, added: false, before: Amendment.Before(result: .answered, seconds: 3, option: 1, optionText: "Low")),
            Amendment(step: 3, madeAt: at, added: true, before: nil),
        ]
        var log = StoredRun(
            routine: "Morning", path: "", sourceHash: "", date: "2026-11-23", startedAt: at, utcOffset: 0, endedAt: nil, result: nil,
            reachedEnd: false, kind: .log)
        log.steps = [StoredStep(decision: RecordedStep(step: 1, node: "water", kind: .habit, result: .done), title: "W", decidedAt: at, seconds: nil)]
        return [
            plain, amended, log, HistoryJSONTests.run,
            StoredRun(
                routine: "Empty", path: "p", sourceHash: "h", date: "2026-11-23", startedAt: at, utcOffset: 3600),
        ]
    }()

    /// The member-by-member reader takes every line without escapes, and what it reads is what
    /// the general reader reads.
    @Test(arguments: forms)
    func theCanonicalReaderReadsWhatTheGeneralOneDoes(_ run: StoredRun) throws {
        var line = HistoryJSON.encode(run).text
        let escaped = line.contains("\\")
        #expect(line.withUTF8 { HistoryJSON.CanonicalReader.run($0) } == nil ? escaped : !escaped)
        #expect(HistoryJSON.decodeCanonical(line.utf8) == run)
        #expect(try HistoryJSON.decode(line.utf8) == run)
    }

    /// Lines in another form than `encode` writes are read by the general reader, to the same run.
    @Test(arguments: [
        (#""seconds":0.001"#, #""seconds":1e-3"#), (#""step":1,"#, #""step":1.0,"#), (#"{"date""#, #"{ "date""#),
        (#""title":"Water""#, #""title":"W\u0061ter""#),
    ])
    func anotherFormReadsTheSame(_ written: String, _ other: String) throws {
        let line = HistoryJSON.encode(Self.forms[0]).text
        #expect(line.contains(written))
        let changed = line.replacingOccurrences(of: written, with: other)
        #expect(HistoryJSON.decodeCanonical(changed.utf8) == nil)
        #expect(try HistoryJSON.decode(changed.utf8) == Self.forms[0])
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

    /// A member missing, null or of another type, wherever it is in the line: each text is the
    /// one `JSONDecoder` gave when it read these lines, kept when the project's own JSON reader
    /// took over.
    static let misshapenLines: [(String, String)] = {
        let run =
            #"{"date":"2026-11-23","routine":"R","result":"quit","started":"2026-11-23T06:12:03.120Z","utcOffset":"+00:00","path":"p","sourceHash":"h","reachedEnd":false"#
        let step = #"{"step":1,"node":"a","kind":"habit","title":"A","result":"done","at":"2026-11-23T06:12:03.120Z""#
        let amended = run + #","steps":["# + step + #"}],"amendments":"#
        return [
            ("null", "the line must be an object, not null"), (#""x""#, "the line must be an object"),
            (#"{"date":null}"#, "'date' must be a string, not null"), (#"{"date":5}"#, "'date' must be a string"),
            (run + #","steps":null}"#, "'steps' must be a list, not null"), (run + #","steps":{}}"#, "'steps' must be a list"),
            (run + #","steps":[3]}"#, "step 1: the step must be an object"),
            (run + #","steps":[null]}"#, "step 1: the step must be an object, not null"),
            (run + #","steps":[{"step":true}]}"#, "step 1: 'step' must be a whole number"),
            (run + #","steps":[{"step":null}]}"#, "step 1: 'step' must be a whole number, not null"),
            (run + #","steps":["# + step + #","value":null,"index":"2"}]}"#, "step 1: 'index' must be a whole number"),
            (run + #","steps":["# + step + #","value":1e400}]}"#, "not JSON"),
            (run + #","steps":["# + step + #","unit":5}]}"#, "step 1: 'unit' must be a string"),
            (run + #","steps":["# + step + #"}],"ended":7}"#, "'ended' must be a string"),
            (amended + "5}", "'amendments' must be a list"), (amended + "[5]}", "step 1: 'amendments' must be an object"),
            (amended + #"[{"step":1.5,"at":"x"}]}"#, "not JSON"), (amended + #"[{"step":1e20,"at":"x"}]}"#, "not JSON"),
            (amended + #"[{"step":"1","at":"x"}]}"#, "step 1: 'step' must be a whole number"),
            (amended + #"[{"step":1,"at":"x","before":5}]}"#, "step 1: 'before' must be an object"),
            (amended + #"[{"step":1,"at":"x","before":{"result":"done","index":"x"}}]}"#, "step 1: 'index' must be a whole number"),
            (amended + #"[{"step":1,"at":"x","before":{}}]}"#, "step 1: 'result' is missing"),
            (
                #"{"date":"d","routine":"R","result":"quit","started":"s","utcOffset":"+00:00","path":"p","sourceHash":"h","steps":[]}"#,
                "'reachedEnd' is missing"
            ),
        ]
    }()

    @Test(arguments: misshapenLines)
    func aMisshapenLineNamesItsFirstWrongMember(_ line: String, _ reason: String) {
        #expect(throws: ImportProblem(reason)) { try HistoryJSON.decode(line.utf8) }
    }

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
