import Foundation
import Testing

@testable import RoutineKit

/// The `.rt.test` format, line by line, and its diagnostics.
struct ScenarioParserTests {
    static func parse(_ text: String) -> (ScenarioFile, [Diagnostic]) {
        let (file, diagnostics) = ScenarioParser.parse(SourceFile(name: "t.rt.test", text: text))
        return (file, diagnostics)
    }

    struct LineCase: CustomTestStringConvertible, Sendable {
        var line: String
        var expected: String
        var testDescription: String { line }
    }

    /// Each line form, read inside a case, described back in a plain form.
    static let lines: [LineCase] = [
        .init(line: "answer Great!", expected: "answer Great!"),
        .init(line: "answer Not so good   # a comment", expected: "answer Not so good"),
        .init(line: "answer \"Take #2\"", expected: "answer Take #2"),
        .init(line: "answer 2", expected: "answer 2"),
        .init(line: "do d", expected: "do d"),
        .init(line: "do skip", expected: "do s"),
        .init(line: "do b", expected: "do b"),
        .init(line: "do q", expected: "do q"),
        .init(line: "do 2.5", expected: "do 2.5"),
        .init(line: "expect habit water done", expected: "next habit water done"),
        .init(line: "expect next habit run not-scheduled", expected: "next habit run not-scheduled"),
        .init(line: "expect eventually habit plan skipped", expected: "eventually habit plan skipped"),
        .init(line: "expect habit water not-scheduled done-by-log", expected: "next habit water not-scheduled done-by-log"),
        .init(line: "expect eventually habit water not-scheduled done-by-run", expected: "eventually habit water not-scheduled done-by-run"),
        .init(line: "expect question mood", expected: "next question mood"),
        .init(line: "expect value pushups 30", expected: "next value pushups 30"),
        .init(line: "expect end completed", expected: "next end completed"),
        .init(line: "expect end quit", expected: "next end quit"),
        .init(line: "expect ways 4", expected: "ways 4"),
        .init(line: "expect not-reached run", expected: "not-reached run"),
    ]

    static func describe(_ step: ScenarioLine) -> String {
        switch step.kind {
        case .answer(let text): "answer \(text)"
        case .act(let action): "do \(action.input)"
        case .expect(let event, let eventually): (eventually ? "eventually " : "next ") + event.text
        case .ways(let n): "ways \(n)"
        case .notReached(let id): "not-reached \(id)"
        }
    }

    @Test(arguments: lines)
    func lineForm(_ c: LineCase) {
        let (file, diagnostics) = Self.parse("case one\n  \(c.line)\n")
        #expect(diagnostics.isEmpty)
        #expect(file.cases.first?.steps.map(Self.describe) == [c.expected])
    }

    struct SetupCase: CustomTestStringConvertible, Sendable {
        var lines: String
        var date: String
        var history: String?
        var testDescription: String { lines }
    }

    static let setups: [SetupCase] = [
        .init(lines: "date 2026-11-23", date: "2026-11-23"),
        .init(lines: "weekday mon", date: "2024-01-01"),
        .init(lines: "weekday sun", date: "2024-01-07"),
        .init(lines: "", date: "2024-01-01"),
        .init(lines: "date 2026-11-27\nhistory week.jsonl", date: "2026-11-27", history: "week.jsonl"),
    ]

    @Test(arguments: setups)
    func setup(_ c: SetupCase) {
        let (file, diagnostics) = Self.parse("case one\n\(c.lines)\ndo d\n")
        #expect(diagnostics.isEmpty)
        #expect(file.cases.first?.runDate.description == c.date)
        #expect(file.cases.first?.history?.path == c.history)
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var codes: [String]
        var testDescription: String { name }
    }

    /// One diagnostic per mistake, and the lines after it still read.
    static let bad: [BadCase] = [
        .init(name: "unknown keyword", text: "case a\nexpekt habit water done\ndo d\n", codes: ["E401"]),
        .init(name: "line before any case", text: "do d\ncase a\ndo d\n", codes: ["E402"]),
        .init(name: "setup after a step", text: "case a\ndo d\ndate 2026-11-23\n", codes: ["E402"]),
        .init(name: "bad date", text: "case a\ndate 2026-02-30\ndo d\n", codes: ["E403"]),
        .init(name: "bad weekday", text: "case a\nweekday monday\n", codes: ["E403"]),
        .init(name: "bad result", text: "case a\nexpect habit water finished\n", codes: ["E403"]),
        .init(name: "bad reason", text: "case a\nexpect habit water not-scheduled by-log\n", codes: ["E403"]),
        .init(name: "reason after done", text: "case a\nexpect habit water done done-by-log\n", codes: ["E403"]),
        .init(name: "bad action", text: "case a\ndo later\n", codes: ["E403"]),
        .init(name: "missing ID", text: "case a\nexpect question\n", codes: ["E403"]),
        .init(name: "extra words", text: "case a\nexpect question mood now\n", codes: ["E403"]),
        .init(name: "strictness on ways", text: "case a\nexpect next ways 3\n", codes: ["E403"]),
        .init(name: "end incomplete", text: "case a\nexpect end incomplete\n", codes: ["E403"]),
        .init(name: "two days", text: "case a\ndate 2026-11-23\nweekday tue\n", codes: ["E404"]),
        .init(name: "same case twice", text: "case a\ndo d\ncase a\ndo d\n", codes: ["E404"]),
        .init(name: "no case", text: "# nothing\n", codes: ["E408"]),
        .init(name: "unterminated string", text: "case a\nanswer \"Great\n", codes: ["E005"]),
        .init(name: "two mistakes, two diagnostics", text: "case a\ndo later\nexpect hbit x done\ndo d\n", codes: ["E403", "E403"]),
    ]

    @Test(arguments: bad)
    func mistakes(_ c: BadCase) {
        let (file, diagnostics) = Self.parse(c.text)
        #expect(diagnostics.map(\.code.rawValue) == c.codes)
        if c.codes != ["E408"] { #expect(!file.cases.isEmpty) }
    }

    @Test func lexerNeverFailsOnAnyByte() {
        var bytes: [UInt8] = []
        for b in 0...255 { bytes += [UInt8(b), 0x22, 0x0A, 0x5C, UInt8(b)] }
        let (tokens, _) = ScenarioLexer.tokens(bytes)
        for token in tokens { #expect(token.span.upperBound <= bytes.count && token.span.lowerBound <= token.span.upperBound) }
        _ = ScenarioParser.parse(SourceFile(name: "x", bytes: bytes))
    }

    @Test func positionsAreByteRanges() {
        let text = "case é\n  expect habit water done\n"
        let (file, _) = Self.parse(text)
        let step = file.cases[0].steps[0]
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[step.argumentSpan.lowerBound..<step.argumentSpan.upperBound], as: UTF8.self) == "water")
        #expect(String(decoding: bytes[step.span.lowerBound..<step.span.upperBound], as: UTF8.self) == "expect habit water done")
    }

    @Test func routineLineAndCaseNames() {
        let (file, diagnostics) = Self.parse("routine ../morning.rt\n\ncase tired on a monday\ndo d\ncase \"quoted # name\"\ndo d\n")
        #expect(diagnostics.isEmpty)
        #expect(file.routinePath?.path == "../morning.rt")
        #expect(file.cases.map(\.name) == ["tired on a monday", "quoted # name"])
    }

    @Test func checkerFindsUnknownNodesAndOptions() {
        let routine = load("routine \"R\"\nhabit water \"W\" -> mood\nquestion mood \"M\"\n  \"Great\"\n  \"Okay\"\n").routine
        let (file, _) = Self.parse("case a\nexpect habit watr done\nexpect question water\nanswer Fine\nanswer gr\nexpect not-reached mood\n")
        let found = ScenarioChecker.check(file, against: routine)
        #expect(found.map(\.code.rawValue) == ["E405", "E405", "E405"])
        #expect(found.first?.fixIt?.replacement == "water")
    }

    /// The checker reads an answer as the run does: what `run` takes passes, what it cannot
    /// take at any question is E405.
    @Test(arguments: [
        ("Badly", true), ("badly", true), ("😴 Badly", true), ("2", true), ("gr", true),
        ("3", false), ("Fine", false), ("😴", false),
    ])
    func checkerReadsAnswersAsTheRunDoes(_ answer: String, taken: Bool) {
        let routine = load("routine \"R\"\nquestion mood \"M\"\n  \"😀 Great\"\n  \"😴 Badly\"\n").routine
        let (file, _) = Self.parse("case a\nanswer \(answer)\n")
        #expect(ScenarioChecker.check(file, against: routine).isEmpty == taken)
    }
}

/// Each bad test file in Fixtures/testfiles beside its rendering (`.expected` rich, `.short`);
/// `RECORD_GOLDEN=1` re-records them.
struct GoldenScenarioDiagnosticTests {
    static let folder = testsDirectory.appendingPathComponent("Fixtures/testfiles")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".rt.test") }.sorted()
    }

    static func rendered(_ name: String, style: DiagnosticRenderer.Style) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
        let file = SourceFile(name: "testfiles/" + name, bytes: bytes)
        let (parsed, diagnostics) = ScenarioParser.parse(file)
        let routine = load("routine \"R\"\nhabit water \"W\" -> mood\nquestion mood \"M\"\n  \"Great\"\n  \"Okay\"\n").routine
        let all = diagnostics.hasErrors ? diagnostics : ScenarioChecker.check(parsed, against: routine)
        return DiagnosticRenderer(style: style, colors: false).render(all, in: file)
    }

    @Test func fixturesExist() { #expect(Self.fixtures.count >= 2) }

    @Test(arguments: fixtures)
    func rich(_ name: String) throws {
        try assertGolden(Self.rendered(name, style: .rich), Self.folder.appendingPathComponent(String(name.dropLast(8)) + ".expected"))
    }

    @Test(arguments: fixtures)
    func short(_ name: String) throws {
        try assertGolden(Self.rendered(name, style: .short), Self.folder.appendingPathComponent(String(name.dropLast(8)) + ".short"))
    }
}
