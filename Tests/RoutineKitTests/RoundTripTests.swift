import Foundation
import Testing

@testable import RoutineKit

/// DSL -> YAML -> DSL and YAML -> DSL -> YAML keep the graph; fmt is idempotent, keeps the
/// graph and every comment. Over the examples, the valid fixtures, and generated routines.
struct RoundTripTests {
    static var files: [String] { GraphExportTests.validRoutines }

    static func commentTexts(_ loaded: LoadedRoutine) -> [String] {
        loaded.comments.map { String(decoding: loaded.file.bytes[$0.lowerBound..<$0.upperBound], as: UTF8.self).trimmingCharacters(in: .whitespaces) }
            .sorted()
    }

    @Test(arguments: files)
    func roundTrips(_ path: String) throws {
        let original = try GraphExportTests.loadFile(path)
        #expect(!original.hasErrors)
        try Self.checkRoundTrips(original.routine)
        guard original.format == .rt else { return }
        let layout = SourceLayout(file: original.file, comments: original.comments)
        let formatted = RoutinePrinter.print(original.routine, layout: layout)
        let reparsed = load(formatted)
        #expect(!reparsed.hasErrors)
        #expect(reparsed.routine.isEquivalent(to: original.routine), "fmt keeps the graph")
        #expect(Self.commentTexts(reparsed) == Self.commentTexts(original), "fmt keeps every comment")
        let again = RoutinePrinter.print(reparsed.routine, layout: SourceLayout(file: reparsed.file, comments: reparsed.comments))
        #expect(again == formatted, "fmt is idempotent")
    }

    static func checkRoundTrips(_ routine: Routine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dsl = RoutinePrinter.print(routine)
        let fromDSL = load(dsl)
        #expect(!fromDSL.hasErrors, "\(fromDSL.diagnostics.map(\.message))\n\(dsl)", sourceLocation: sourceLocation)
        #expect(fromDSL.routine.isEquivalent(to: routine), "DSL round trip\n\(dsl)", sourceLocation: sourceLocation)
        let yaml = YAMLWriter.write(routine)
        let fromYAML = load(yaml, format: .yaml)
        #expect(!fromYAML.hasErrors, "\(fromYAML.diagnostics.map(\.message))\n\(yaml)", sourceLocation: sourceLocation)
        #expect(fromYAML.routine.isEquivalent(to: routine), "YAML round trip\n\(yaml)", sourceLocation: sourceLocation)
        // YAML -> DSL -> YAML gives the same YAML, byte for byte.
        let yamlAgain = YAMLWriter.write(load(RoutinePrinter.print(fromYAML.routine)).routine)
        #expect(yamlAgain == yaml, sourceLocation: sourceLocation)
        #expect(RoutinePrinter.print(fromDSL.routine) == dsl, "printing is idempotent", sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<200)
    func generatedRoutinesRoundTrip(_ seed: Int) throws {
        var generator = RoutineGenerator(seed: UInt64(seed))
        let routine = generator.routine()
        #expect(!Validator.validate(routine).hasErrors, "the generator makes valid routines")
        try Self.checkRoundTrips(routine)
    }

    /// YAML is written as UTF-8: emoji as they are (libyaml alone escapes them as `\U…`), a
    /// private-use character beside them too, and only what YAML requires escaped.
    @Test(arguments: [
        ("😴 Badly", "title: 😴 Badly\n"), ("é 日本語 🧘‍♀️", "title: é 日本語 🧘‍♀️\n"),
        ("\u{E000}😴\u{E001}", "title: \u{E000}😴\u{E001}\n"), ("😴\n\\U0001F634", "title: \"😴\\n\\\\U0001F634\"\n"),
        ("yes 😴", "title: yes 😴\n"), ("😴 \u{7}", "title: \"😴 \\a\"\n"),
    ])
    func yamlIsWrittenAsUTF8(_ title: String, line: String) throws {
        let routine = Routine(name: "R", nodes: [RoutineNode(kind: .habit, id: "a", title: title)])
        let yaml = YAMLWriter.write(routine)
        #expect(yaml.contains(line), "\(yaml)")
        try Self.checkRoundTrips(routine)
    }

    /// A node written over several lines that each end in a comment is printed on one line,
    /// which can end in one comment only: the others go before the next declaration.
    @Test func commentsOfJoinedLinesStaySeparate() {
        let source = """
            routine "R"
            habit a "A"   # on the header
              -> b        # on the arrow
            habit b
              "B"         # on the title
              -> end      # on the arrow too

            """
        let loaded = load(source)
        let printed = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
        #expect(
            printed == """
                routine "R"
                habit a "A" -> b  # on the header
                # on the arrow
                habit b "B" -> end  # on the title
                # on the arrow too

                """)
        let again = load(printed)
        #expect(again.comments.count == loaded.comments.count)
        #expect(RoutinePrinter.print(again.routine, layout: SourceLayout(file: again.file, comments: again.comments)) == printed)
    }

    @Test func formattingKeepsCommentsWhereTheyWere() {
        let source = """
            # header

            routine "R"   # name
            # before a
            habit a "A"
              note "n"    # on the note
              -> b        # on the arrow
            question b "B"
              # before yes
              "yes" -> end   # trailing yes
              "no"
            # at the end

            """
        let loaded = load(source)
        let printed = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
        #expect(
            printed == """
                # header

                routine "R"  # name
                # before a
                habit a "A"
                  note "n"  # on the note
                  -> b      # on the arrow
                question b "B"
                  # before yes
                  "yes" -> end  # trailing yes
                  "no"
                # at the end

                """)
    }
}

/// Random valid routines from a seed: forward arrows only, hostile strings everywhere.
struct RoutineGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// Texts that stress quoting and escaping; no NUL, which the language refuses (E012).
    static let hostile = [
        "plain", "with \"quotes\"", "back\\slash\\", "line\nbreak", "tab\there", "cr\rhere", "# not a comment", "key: value",
        "- leading dash", "? question", "[bracket", "{brace}", "&anchor", "*alias", "!tag", "%percent", "@at", "`tick`",
        "yes", "no", "true", "null", "~", "123", "1e5", "0x1F", ".5", "-", "  spaces around  ", "emoji 🧘‍♀️👨‍👩‍👧",
        "RTL שלום", "e\u{301}", "bell \u{7} esc \u{1B}", "del \u{7F} c1 \u{85}\u{9F}", "ls \u{2028} ps \u{2029}", "bom \u{FEFF}",
        "non-char \u{FFFE}", "private use \u{E000}😴", "end", "habit", "'single'", "a,b", "->", "\\u{41}",
    ]

    mutating func string() -> String {
        var s = Self.hostile[below(Self.hostile.count)]
        if chance(30) { s += " " + Self.hostile[below(Self.hostile.count)] }
        return s
    }

    mutating func id(_ k: Int) -> String {
        ["n\(k)", "node-\(k)", "_\(k)", "x_\(k)-y", "N\(k)__"][below(5)]
    }

    mutating func routine() -> Routine {
        let count = 1 + below(25)
        let ids = (0..<count).map { id($0) }
        var nodes: [RoutineNode] = []
        func targets(from k: Int, _ generator: inout RoutineGenerator) -> [Edge] {
            var edges: [Edge] = []
            for _ in 0..<generator.below(3) where k + 1 < count {
                let t = k + 1 + generator.below(count - k - 1)
                if !edges.contains(where: { $0.target == .node(t) }) { edges.append(Edge(.node(t), span: Span(at: 0))) }
            }
            if generator.chance(10) { edges.append(Edge(.end, span: Span(at: 0))) }
            return edges
        }
        for k in 0..<count {
            var node = RoutineNode(kind: chance(30) ? .question : .habit, id: ids[k], title: string())
            if chance(20) { node.note = string() }
            if node.isHabit {
                if chance(50) { node.duration = 1 + below(DurationText.maximumSeconds) }
                if chance(30) {
                    let amount = chance(50) ? Double(1 + below(1000)) : Double(1 + below(100_000)) / 100
                    node.target = TargetValue(amount: amount, unit: chance(50) ? ["glasses", string()][below(2)] : nil)
                }
                if chance(30) { node.days = Weekdays(rawValue: UInt8(1 + below(127))) }
            } else {
                var texts = Set<String>()
                for _ in 0..<(2 + below(3)) {
                    let text = string() + " \(texts.count)"
                    texts.insert(text)
                    node.options.append(QuestionOption(text: text, next: targets(from: k, &self)))
                }
            }
            node.next = targets(from: k, &self)
            nodes.append(node)
        }
        var routine = Routine(name: string(), nodes: nodes)
        if chance(40) {
            routine.explicitStart = [Edge(.node(0), span: Span(at: 0))]
            routine.startSpan = Span(at: 0)
        }
        return routine
    }
}
