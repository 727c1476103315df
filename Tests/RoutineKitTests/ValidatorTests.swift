import Foundation
import Testing

@testable import RoutineKit

/// One case per check: the codes a source produces, in source order.
struct ValidatorTests {
    static let header = "routine \"R\"\n"

    static let cases: [CodesCase] = [
        CodesCase(name: "clean", source: header + "habit a \"A\" -> b\nhabit b \"B\"", codes: []),
        CodesCase(
            name: "a sick option to end is a note", source: header + "question q \"Q\"\n  \"Fine\" -> a\n  \"Sick today\" -> end\nhabit a \"A\"",
            codes: ["N001"]),
        CodesCase(
            name: "a holiday option to end is a note", source: header + "question q \"Q\"\n  \"Fine\" -> a\n  \"On holiday\" -> end\nhabit a \"A\"",
            codes: ["N001"]),
        CodesCase(
            name: "a sick option that goes on is no note", source: header + "question q \"Q\"\n  \"Fine\" -> a\n  \"Sick\" -> a, end\nhabit a \"A\"",
            codes: []),
        CodesCase(
            name: "a word inside another is no note", source: header + "question q \"Q\"\n  \"Fine\" -> a\n  \"Skill\" -> end\nhabit a \"A\"",
            codes: []),
        CodesCase(name: "empty file", source: "", codes: ["E102"]),
        CodesCase(name: "comments only", source: "# nothing\n# here\n", codes: ["E102"]),
        CodesCase(name: "only the routine line", source: "routine \"x\"", codes: ["W007"]),
        CodesCase(name: "missing routine declaration", source: "habit a \"A\"", codes: ["E102"]),
        CodesCase(name: "routine declaration not first", source: "habit a \"A\"\nroutine \"R\"", codes: ["E102", "E103"]),
        CodesCase(name: "duplicate routine", source: header + "routine \"S\"\nhabit a \"A\"", codes: ["E103"]),
        CodesCase(name: "duplicate start", source: header + "start -> a\nstart -> a\nhabit a \"A\"", codes: ["E104"]),
        CodesCase(name: "unexpected character", source: header + "habit a \"A\" -> b $\nhabit b \"B\"", codes: ["E004"]),
        CodesCase(name: "unterminated string", source: header + "habit a \"A -> b\nhabit b \"B\"", codes: ["E005"]),
        CodesCase(name: "invalid escape", source: header + "habit a \"A\\q\"", codes: ["E006"]),
        CodesCase(name: "bad unicode escape", source: header + "habit a \"A\\u{D800}\"", codes: ["E006"]),
        CodesCase(name: "keyword as id", source: header + "habit end \"A\"", codes: ["E101"]),
        CodesCase(name: "missing title", source: header + "habit a -> b\nhabit b \"B\"", codes: ["E101"]),
        CodesCase(name: "duplicate attribute", source: header + "habit a \"A\" for 1m for 2m", codes: ["E105"]),
        CodesCase(name: "duplicate target", source: header + "habit a \"A\" target 2 for 1m target 3", codes: ["E105"]),
        CodesCase(name: "duplicate days", source: header + "habit a \"A\" on mon note \"n\" on tue", codes: ["E105"]),
        CodesCase(name: "duplicate note", source: header + "habit a \"A\" note \"x\" on mon note \"y\"", codes: ["E105"]),
        CodesCase(name: "each attribute once", source: header + "habit a \"A\" for 1m target 2 on mon note \"n\"", codes: []),
        CodesCase(name: "habit attribute on question", source: header + "question q \"Q\" for 5m\n \"x\" -> end\n \"y\"", codes: ["E106"]),
        CodesCase(name: "two arrows on a habit", source: header + "habit a \"A\" -> b\n -> b\nhabit b \"B\"", codes: ["E107"]),
        CodesCase(name: "bad duration", source: header + "habit a \"A\" for 10x", codes: ["E108"]),
        CodesCase(name: "zero duration", source: header + "habit a \"A\" for 0m", codes: ["E108"]),
        CodesCase(name: "overflowing duration", source: header + "habit a \"A\" for 99999999999999h", codes: ["E108"]),
        CodesCase(name: "units out of order", source: header + "habit a \"A\" for 5m1h", codes: ["E108"]),
        CodesCase(name: "bad target", source: header + "habit a \"A\" target many", codes: ["E109"]),
        CodesCase(name: "target with exponent", source: header + "habit a \"A\" target 1e400", codes: ["E109"]),
        CodesCase(name: "zero target", source: header + "habit a \"A\" target 0", codes: ["E109"]),
        CodesCase(name: "a limit of zero", source: header + "habit a \"A\" target at most 0", codes: []),
        CodesCase(name: "a quota beyond its days", source: header + "habit a \"A\" 4 per week on mon wed", codes: ["W014"]),
        CodesCase(name: "a quota of its days", source: header + "habit a \"A\" 2 per week on mon wed", codes: []),
        CodesCase(name: "a quota on weekdays", source: header + "habit a \"A\" 5 per week on weekdays", codes: []),
        CodesCase(name: "unknown day", source: header + "habit a \"A\" on mon funday", codes: ["E110"]),
        CodesCase(name: "no day after on", source: header + "habit a \"A\" on\n -> end", codes: ["E110"]),
        CodesCase(name: "arrow without target", source: header + "habit a \"A\" ->\nhabit b \"B\"", codes: ["E111"]),
        CodesCase(name: "duplicate node", source: header + "habit a \"A\"\nhabit a \"B\"", codes: ["E201"]),
        CodesCase(name: "dangling edge", source: header + "habit a \"A\" -> b", codes: ["E202"]),
        CodesCase(name: "unknown start", source: header + "start -> nowhere\nhabit a \"A\"", codes: ["E203", "W001"]),
        CodesCase(name: "self loop", source: header + "habit a \"A\" -> a", codes: ["E204"]),
        CodesCase(
            name: "cycle through a question", source: header + "habit a \"A\" -> q\nquestion q \"Q\"\n \"again\" -> a\n \"stop\" -> end",
            codes: ["E204"]),
        CodesCase(name: "duplicate option", source: header + "question q \"Q\"\n \"x\" -> end\n \"x\"", codes: ["E205"]),
        CodesCase(name: "question without options", source: header + "question q \"Q\" -> end", codes: ["E206"]),
        CodesCase(name: "empty title", source: header + "habit a \"\"", codes: ["E207"]),
        CodesCase(name: "empty answer", source: header + "question q \"Q\"\n \"\" -> end\n \"y\"", codes: ["E207"]),
        CodesCase(name: "empty routine name", source: "routine \"\"\nhabit a \"A\"", codes: ["E207"]),
        CodesCase(name: "end as start", source: header + "start -> end\nhabit a \"A\"", codes: ["E208", "W001"]),
        CodesCase(name: "unreachable", source: header + "habit a \"A\"\nhabit b \"B\"", codes: ["W001"]),
        CodesCase(
            name: "a region cut off by a typo is one warning",
            source: header + "habit a \"A\" -> bx\nhabit b \"B\" -> c\nhabit c \"C\" -> d\nhabit d \"D\"", codes: ["E202", "W001"]),
        CodesCase(
            name: "two entries into one region warn at each",
            source: header + "habit a \"A\"\nhabit b \"B\" -> d\nhabit c \"C\" -> d\nhabit d \"D\" -> e\nhabit e \"E\"", codes: ["W001", "W001"]),
        CodesCase(
            name: "lone unused declarations warn each", source: header + "habit a \"A\"\nhabit b \"B\"\nhabit c \"C\"", codes: ["W001", "W001"]),
        CodesCase(
            name: "an unreachable cycle is entered at its first node", source: header + "habit a \"A\"\nhabit x \"X\" -> y\nhabit y \"Y\" -> x",
            codes: ["W001", "E204"]),
        CodesCase(
            name: "an arrow to a declaration lost to a misspelt keyword is not unknown", source: header + "habit a \"A\" -> pack\nhabbit pack \"P\"",
            codes: ["E101"]),
        CodesCase(
            name: "the suggested fix of a typo is not also unreachable", source: header + "habit a \"A\" -> meditat\nhabit meditate \"M\"",
            codes: ["E202"]),
        CodesCase(name: "options all the same", source: header + "question q \"Q\"\n \"x\" -> a\n \"y\" -> a\nhabit a \"A\"", codes: ["W002"]),
        CodesCase(name: "single option", source: header + "question q \"Q\"\n \"x\" -> end", codes: ["W003"]),
        CodesCase(name: "target listed twice", source: header + "habit a \"A\" -> b, b\nhabit b \"B\"", codes: ["W004"]),
        CodesCase(name: "targets after end", source: header + "habit a \"A\" -> end, b\nhabit b \"B\"", codes: ["W005"]),
        CodesCase(name: "every day", source: header + "habit a \"A\" on weekdays weekends", codes: ["W006"]),
        CodesCase(name: "day twice", source: header + "habit a \"A\" on weekdays mon", codes: ["W008"]),
        CodesCase(
            name: "question gather only reaches", source: header + "question q \"Q\"\n \"x\"\n \"y\" -> b\n then -> c\nhabit b \"B\"\nhabit c \"C\"",
            codes: []),
    ]

    @Test(arguments: cases)
    func reports(_ c: CodesCase) {
        #expect(codes(c.source) == c.codes)
    }

    @Test func everyErrorIsReportedInOneRun() {
        let source = Self.header + "habit a \"A\" -> b\nhabit b \"B\" -> a, c\nhabit d \"D\" for 5 -> a\nhabit e \"E\" @\nhabit f \"F\""
        let found = Set(codes(source))
        #expect(found.isSuperset(of: ["E204", "E202", "E108", "E004"]))
    }

    @Test func danglingTargetSuggestsTheClosestID() {
        let d = load(Self.header + "habit a \"A\" -> meditat\nhabit meditate \"M\"").diagnostics.first { $0.code == .unknownTarget }
        #expect(d?.fixIt?.replacement == "meditate")
        #expect(d?.fixIt?.message == "did you mean 'meditate'?")
    }

    /// (word, candidates, suggestion): a suggestion keeps something of the word.
    @Test(
        arguments: [
            ("x", ["a", "b"], nil), ("x", ["xy", "a"], "xy"), ("ab", ["ba"], "ba"), ("ab", ["cd"], nil),
            ("meditat", ["meditate", "water"], "meditate"), ("titel", ["title"], "title"), ("run", ["sun", "runs"], "sun"),
        ] as [(String, [String], String?)])
    func suggestionsAreCloseEnoughToBeTypos(_ word: String, _ candidates: [String], _ expected: String?) {
        #expect(closestMatch(to: word, among: candidates) == expected)
    }

    /// The bounded rows and the byte-wise path choose as the whole table of distances does:
    /// seeded words over a few letters (one of them not ASCII), against a plain computation.
    @Test(arguments: 0..<20)
    func suggestionsMatchTheWholeTable(seed: Int) {
        var random = SeededRandom(state: UInt64(seed))
        let letters: [Character] = seed % 2 == 0 ? ["a", "b", "c", "d"] : ["a", "b", "é", "d"]
        func word() -> String { String((0..<Int.random(in: 1...9, using: &random)).map { _ in letters.randomElement(using: &random)! }) }
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            for i in stride(from: 1, through: a.count, by: 1) {
                for j in stride(from: 1, through: b.count, by: 1) {
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
                }
            }
            return d[a.count][b.count]
        }
        for _ in 0..<50 {
            let target = word()
            let candidates = (0..<30).map { _ in word() }
            let limit = max(1, target.count / 3)
            var expected: (String, Int)?
            for candidate in candidates where candidate != target {
                let d = distance(Array(target), Array(candidate))
                if d <= limit, d < max(target.count, candidate.count), d < (expected?.1 ?? Int.max) { expected = (candidate, d) }
            }
            #expect(closestMatch(to: target, among: candidates) == expected?.0, "\(target) among \(candidates)")
        }
    }

    /// A typo in the middle of a 5,000-node chain: one error and one warning at the node
    /// the typo meant, which counts the 2,499 nodes after it and lists each as related.
    @Test func aCutOffChainIsOneWarningWithItsCount() {
        var source = Self.header
        for i in 0..<5000 {
            source += "habit n\(i) \"S\"" + (i == 2499 ? " -> n2500x" : i < 4999 ? " -> n\(i + 1)" : "") + "\n"
        }
        let diagnostics = load(source).diagnostics
        #expect(diagnostics.map(\.code.rawValue) == ["E202", "W001"])
        let warning = diagnostics.last
        #expect(warning?.message == "node 'n2500' and the 2,499 nodes after it can never be reached")
        #expect(warning?.notes.first?.message == "the others are 'n2501', 'n2502', 'n2503', 'n2504', 'n2505' and 2,494 more")
        #expect(warning?.related.count == 2499)
        #expect(warning?.related.first?.message == "'n2501' can never be reached either")
    }

    @Test(arguments: [
        ("habit a \"A\"\nhabit b \"B\"", "node 'b' can never be reached from the start"),
        ("habit a \"A\"\nhabit b \"B\" -> c\nhabit c \"C\"", "node 'b' and the node after it can never be reached"),
        ("habit a \"A\"\nhabit b \"B\" -> c, a\nhabit c \"C\" -> d\nhabit d \"D\"", "node 'b' and the 2 nodes after it can never be reached"),
    ])
    func regionMessages(_ body: String, _ message: String) {
        #expect(load(Self.header + body).diagnostics.filter { $0.code == .unreachableNode }.map(\.message) == [message])
    }

    /// A name given on the command line that names nothing: the typo's fix, or the names there are.
    @Test(arguments: [
        ("gmy", ["gym", "run"], "; did you mean 'gym'?"),
        ("nosuch", ["gym", "run"], "; its habits are 'gym', 'run'"),
        ("nosuch", ["a", "b", "c", "d", "e", "f", "g", "h"], "; its habits are 'a', 'b', 'c', 'd', 'e', 'f' and 2 more"),
        ("nosuch", [], "; it has no habits"),
    ])
    func hintsForUnknownNames(_ word: String, _ names: [String], _ expected: String) {
        #expect(nameHint(for: word, among: names, kind: "habits") == expected)
    }

    @Test func cyclePrintsTheWholePathWithEachEdge() {
        let d = load(Self.header + "habit coffee \"C\" -> check\nhabit check \"M\" -> coffee").diagnostics.first { $0.code == .cycle }
        #expect(d?.message == "routine has a cycle: 'coffee' -> 'check' -> 'coffee'")
        #expect(d?.notes.compactMap(\.span).count == 2)
    }

    /// A graph whose arrows all point down the file skips the search for cycles; any arrow
    /// back up, even one that closes no cycle, must send it through the search.
    @Test(arguments: [
        ("a -> b, c; b -> c", true, 0),
        ("a -> c; b; c -> b", false, 0),
        ("a -> a", false, 1),
        ("a -> b; b -> c; c -> a", false, 1),
        ("a -> b; b -> a; c -> c", false, 2),
    ])
    func cyclesWhicheverWayArrowsPoint(_ shape: String, _ forward: Bool, _ cycles: Int) {
        var source = Self.header
        for node in shape.split(separator: ";") {
            let parts = node.split(separator: "->").map { $0.trimmingCharacters(in: .whitespaces) }
            source += "habit \(parts[0]) \"\(parts[0])\"" + (parts.count > 1 ? " -> " + parts[1] : "") + "\n"
        }
        let loaded = load(source)
        let graph = RoutineGraph(loaded.routine)
        #expect(graph.pointsForward == forward)
        #expect(StronglyConnectedComponents(graph).isCyclic.filter { $0 }.count == cycles)
        #expect(loaded.diagnostics.filter { $0.code == .cycle }.count == cycles)
    }

    @Test func duplicateNodePointsAtBoth() {
        let d = load(Self.header + "habit a \"A\"\nhabit a \"B\"").diagnostics.first
        #expect(d?.span != nil && d?.secondary.count == 1 && d?.secondary[0].span != d?.span)
    }

    /// The language's codes only: RoutineStudioTests' `DiagnosticCatalogueTests` gathers every
    /// module's list, checks them together and against grammar.md.
    @Test func everyCodeHasASummaryAndStableSeverity() {
        for code in DiagnosticCode.languageCodes {
            #expect(!code.summary.isEmpty)
            #expect(code.severity == (code.rawValue.hasPrefix("W") ? .warning : code.rawValue.hasPrefix("N") ? .note : .error))
            // The language core holds none of the studio's edits but the builder's (E601), and none of sync's.
            #expect(code == .editRefused || !(code.rawValue.hasPrefix("E6") || code.rawValue.hasPrefix("E7")), "\(code)")
        }
        #expect(Set(DiagnosticCode.languageCodes.map(\.rawValue)).count == DiagnosticCode.languageCodes.count)
    }
}
