import Testing

@testable import RoutineKit

struct ParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "habit on one line", source: "routine \"R\"\nhabit a \"A\" for 10m -> b\nhabit b \"B\"",
            expected: "routine R\nhabit a [A] for=600 -> b\nhabit b [B]"),
        Case(
            name: "attributes on following lines", source: "routine \"R\"\nhabit a \"A\"\n  note \"n\"\n  on weekdays\n  -> end",
            expected: "routine R\nhabit a [A] on=weekdays note=[n] -> end"),
        Case(
            name: "durations combine", source: "routine \"R\"\nhabit a \"A\" for 1h30m\nhabit b \"B\" for 90s",
            expected: "routine R\nhabit a [A] for=5400\nhabit b [B] for=90"),
        Case(
            name: "target with unit word and string", source: "routine \"R\"\nhabit a \"A\" target 8 glasses\nhabit b \"B\" target 2.5 \"km run\"",
            expected: "routine R\nhabit a [A] target=8/glasses\nhabit b [B] target=2.5/km run"),
        Case(
            name: "days in any order collapse", source: "routine \"R\"\nhabit a \"A\" on sun sat mon",
            expected: "routine R\nhabit a [A] on=mon+weekends"),
        Case(
            name: "question with gather",
            source: "routine \"R\"\nquestion q \"Q?\"\n  \"Yes\" -> a, b\n  \"No\"\n  -> c\nhabit a \"A\"\nhabit b \"B\"\nhabit c \"C\"",
            expected: "routine R\nquestion q [Q?] {Yes -> a,b} {No} -> c\nhabit a [A]\nhabit b [B]\nhabit c [C]"),
        Case(
            name: "option arrow continues after comma",
            source: "routine \"R\"\nquestion q \"Q\"\n  \"Yes\" -> a,\n     b\n  \"No\" -> end\nhabit a \"A\"\nhabit b \"B\"",
            expected: "routine R\nquestion q [Q] {Yes -> a,b} {No -> end}\nhabit a [A]\nhabit b [B]"),
        Case(
            name: "explicit start with two targets", source: "routine \"R\"\nstart -> b, a\nhabit a \"A\"\nhabit b \"B\"",
            expected: "routine R start -> b,a\nhabit a [A]\nhabit b [B]"),
        Case(
            name: "escapes", source: #"routine "R"\#nhabit a "say \"hi\"\\ \n\t\u{1F600}""#,
            expected: "routine R\nhabit a [say \"hi\"\\ \n\t😀]"),
        Case(
            name: "escapes at and past the eighth byte", source: #"routine "R"\#nhabit a "abcdefg\"hijklmn\" rstuvwxyz\\""#,
            expected: "routine R\nhabit a [abcdefg\"hijklmn\" rstuvwxyz\\]"),
        Case(
            name: "crlf line ends", source: "routine \"R\"\r\nhabit a \"A\" -> b\r\nhabit b \"B\"\r\n",
            expected: "routine R\nhabit a [A] -> b\nhabit b [B]"),
        Case(
            name: "arrow without spaces", source: "routine \"R\"\nhabit a-1 \"A\"->b_2\nhabit b_2 \"B\"",
            expected: "routine R\nhabit a-1 [A] -> b_2\nhabit b_2 [B]"),
        Case(name: "byte order mark", source: "\u{FEFF}routine \"R\"\nhabit a \"A\"", expected: "routine R\nhabit a [A]"),
        Case(
            name: "comments everywhere", source: "# top\nroutine \"R\" # name\nhabit a \"A # not a comment\" # c\n# end",
            expected: "routine R\nhabit a [A # not a comment]"),
        Case(
            name: "weekly quota, on the header or below, with days",
            source:
                "routine \"R\"\nhabit a \"A\" for 30m 3 per week\nhabit b \"B\"\n  on weekdays\n  2 per week\nhabit per \"P\" -> week\nhabit week \"W\"",
            expected: "routine R\nhabit a [A] for=1800 per-week=3\nhabit b [B] on=weekdays per-week=2\nhabit per [P] -> week\nhabit week [W]"),
        Case(
            name: "question with note", source: "routine \"R\"\nquestion q \"Q\" note \"think\"\n \"a\" -> end\n \"b\" -> end",
            expected: "routine R\nquestion q [Q] note=[think] {a -> end} {b -> end}"),
    ]

    @Test(arguments: cases)
    func parses(_ c: Case) {
        let loaded = load(c.source)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map(\.message))")
        #expect(dump(loaded.routine) == c.expected)
    }

    @Test func normativeExampleParsesAndMeansWhatItSays() throws {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("routines/morning.rt"), encoding: .utf8)
        let loaded = load(source)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
        let r = loaded.routine
        let index = r.indexByID()
        #expect(r.name == "Morning")
        #expect(r.start.map { r.name(of: $0.target) } == ["water"])
        let mood = r.nodes[index["mood"]!]
        #expect(mood.options.map(\.text) == ["Great!", "Okay", "Not so good", "Skip today", "Tired"])
        #expect(mood.options[0].next.map { r.name(of: $0.target) } == ["run", "meditate"])
        #expect(mood.options[3].next.map(\.target) == [.end])
        #expect(mood.options[4].next.isEmpty)
        #expect(mood.next.map { r.name(of: $0.target) } == ["plan"])
        let run = r.nodes[index["run"]!]
        #expect(run.duration == 1800 && run.days == [.monday, .wednesday, .friday])
        #expect(r.nodes[index["journal"]!].note == "What went well yesterday?")
        #expect(r.nodes[index["shower"]!].next.isEmpty)
        #expect(r.nodes[index["water2"]!].target == TargetValue(amount: 8, unit: "glasses"))
        #expect(r.nodes[index["plan"]!].days == .weekdays)
    }

    @Test func defaultStartIsTheFirstNode() {
        let r = load("routine \"R\"\nhabit b \"B\"\nhabit a \"A\"").routine
        #expect(r.startSpan == nil)
        #expect(r.start.map(\.target) == [.node(0)])
    }

    @Test func spansPointAtTheSource() {
        let source = "routine \"R\"\nhabit a \"A\" -> b\nhabit b \"B\""
        let r = load(source).routine
        let bytes = Array(source.utf8)
        func text(_ s: Span) -> String { String(decoding: bytes[s.lowerBound..<s.upperBound], as: UTF8.self) }
        #expect(text(r.nodes[0].idSpan) == "a")
        #expect(text(r.nodes[0].titleSpan) == "\"A\"")
        #expect(text(r.nodes[0].next[0].span) == "b")
        #expect(text(r.nameSpan) == "\"R\"")
    }

    /// Each keyword is recognised by its packed spelling; words one byte off are identifiers.
    @Test(arguments: TokenKind.keywords)
    func keywordsAndNearMisses(_ keyword: (String, TokenKind)) {
        func kind(_ word: String) -> TokenKind {
            var word = word
            return word.withUTF8 { Lexer.keyword($0) } ?? .identifier
        }
        let (word, expected) = keyword
        #expect(kind(word) == expected)
        #expect(kind(word + "s") == .identifier)
        #expect(kind(String(word.dropLast())) == .identifier)
        #expect(kind(word.uppercased()) == .identifier)
        #expect(kind(String(word.dropLast()) + "x") == .identifier)
    }
}

struct GatherTests {
    static let r = "routine \"R\"\n"
    static let habits = "habit a \"A\"\nhabit b \"B\"\n"

    @Test(arguments: [
        ("then", "question q \"Q\"\n  \"x\" -> a\n  \"y\"\n  then -> b\n", [String]()),
        ("bare arrow keeps its meaning", "question q \"Q\"\n  \"x\" -> a\n  \"y\"\n  -> b\n", ["W010"]),
        ("bare arrow under an option", "question q \"Q\"\n  \"x\" -> a\n  \"y\"\n    -> b\n", ["W010"]),
        ("header-line arrow", "question q \"Q\" -> b\n  \"x\" -> a\n  \"y\"\n", []),
    ])
    func theGatherRunsAfterEveryOption(_ name: String, _ question: String, _ codes: [String]) throws {
        let loaded = load(Self.r + question + Self.habits)
        #expect(loaded.diagnostics.map(\.code.rawValue) == codes, "\(name)")
        let q = try #require(loaded.routine.nodes.first { $0.id == "q" })
        #expect(q.next.map { loaded.routine.name(of: $0.target) } == ["b"])
        #expect(q.options.map { $0.next.map { loaded.routine.name(of: $0.target) } } == [["a"], []])
    }

    @Test func aNodeMayStillBeCalledThen() {
        let loaded = load("routine \"R\"\nhabit then \"T\"\nquestion q \"Q\"\n  \"x\" -> then\n  \"y\"\nstart -> q\n")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
        #expect(loaded.routine.nodes.map(\.id) == ["then", "q"])
    }

    @Test func optionsAfterTheGatherAreErrors() {
        let loaded = load(Self.r + "question q \"Q\"\n  \"x\" -> a\n  then -> b\n  \"y\" -> a\n  \"z\"\n" + Self.habits)
        #expect(loaded.diagnostics.map(\.code.rawValue) == ["E112", "E112"])
        let fix = loaded.diagnostics[0].fixIt
        #expect(fix?.replacement == "\"y\" -> a\n  \"z\"\n  then -> b")
        #expect(loaded.diagnostics[1].fixIt == nil)
    }

    /// A second gather (E107) does not hide the options after the first (E112).
    @Test(arguments: [
        ("  \"x\" -> a\n  then -> b\n  \"y\"\n  -> b\n", ["E107", "E112", "W010"]),
        ("  \"x\" -> a\n  -> b\n  \"y\"\n  then -> b\n", ["E107", "E112", "W010"]),
        ("  \"x\" -> a\n  then -> b\n  then -> b\n  \"y\"\n", ["E107", "E112"]),
    ])
    func optionsAfterTheFirstOfTwoGathersAreErrors(_ question: String, codes: [String]) {
        let loaded = load(Self.r + "question q \"Q\"\n" + question + Self.habits)
        #expect(loaded.diagnostics.map(\.code.rawValue).sorted() == codes)
    }

    @Test func theBareGatherOffersBothFixes() throws {
        let source = Self.r + "question q \"Q\"\n  \"x\" -> a\n  \"y\"\n    -> b\n" + Self.habits
        let d = try #require(load(source).diagnostics.first)
        #expect(d.message == "this arrow is the question's gather, not the arrow of option 'y'")
        #expect(d.fixIt?.replacement == "then ")
        let move = try #require(d.alternatives.first)
        #expect(move.replacement == " -> b")
        // Applying the move gives the option its own arrow and the question no gather.
        var bytes = Array(source.utf8)
        bytes.replaceSubrange(move.span.lowerBound..<move.span.upperBound, with: Array(move.replacement.utf8))
        let moved = load(String(decoding: bytes, as: UTF8.self))
        let q = try #require(moved.routine.nodes.first { $0.id == "q" })
        #expect(q.next.isEmpty && q.options[1].next.count == 1)
    }

    @Test func formattingWritesTheGatherAsThen() {
        let loaded = load(Self.r + "question q \"Q\"\n  \"x\" -> a\n  \"y\"\n  -> b\n" + Self.habits)
        #expect(RoutinePrinter.print(loaded.routine).contains("  \"y\"\n  then -> b\n"))
    }
}
