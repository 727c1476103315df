import Foundation
import Testing

@testable import RoutineKit

struct GraphExportTests {
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")

    /// Every example routine and every valid fixture.
    static var validRoutines: [String] {
        func list(_ folder: URL, _ prefix: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".rt") || $0.hasSuffix(".yaml") }.sorted().map { prefix + $0 }
        }
        return list(packageRoot.appendingPathComponent("routines"), "routines/")
            + list(fixtures.appendingPathComponent("valid"), "Tests/RoutineKitTests/Fixtures/valid/")
    }

    static func loadFile(_ relative: String) throws -> LoadedRoutine {
        let url = packageRoot.appendingPathComponent(relative)
        return RoutineLoader.load(SourceFile(name: relative, bytes: try [UInt8](Data(contentsOf: url))))
    }

    /// Runs Graphviz's dot on `text`; returns its exit status and everything it said on stderr.
    static func graphviz(_ text: String) throws -> (Int32, String) {
        // Without Graphviz, `env` exits before reading: that must fail this test, not kill the
        // test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        guard onPath.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/dot") }) else {
            throw GraphvizMissing()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dot", "-Tsvg", "-o", "/dev/null"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    struct GraphvizMissing: Error, CustomStringConvertible {
        var description: String { "Graphviz's dot is not on PATH: install graphviz (apt-get install graphviz)" }
    }

    @Test(arguments: validRoutines)
    func graphvizAcceptsWithoutAWarning(_ path: String) throws {
        let loaded = try Self.loadFile(path)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map(\.message))")
        for direction in DOTWriter.Direction.allCases {
            let (status, stderr) = try Self.graphviz(DOTWriter.write(GraphView(loaded.routine, showProblems: false), direction: direction))
            #expect(status == 0)
            #expect(stderr == "")
        }
    }

    @Test func invalidViewIsAcceptedByGraphvizToo() throws {
        let loaded = try Self.loadFile("Tests/RoutineKitTests/Fixtures/graphs/invalid.rt")
        let (status, stderr) = try Self.graphviz(DOTWriter.write(GraphView(loaded.routine, showProblems: true)))
        #expect(status == 0 && stderr == "")
    }

    struct Golden: CustomTestStringConvertible, Sendable {
        let source: String
        let name: String
        let mermaid: Bool
        let problems: Bool
        var testDescription: String { name }
    }

    static let goldens: [Golden] = [
        Golden(source: "routines/morning.rt", name: "morning.dot", mermaid: false, problems: false),
        Golden(source: "routines/morning.rt", name: "morning.mmd", mermaid: true, problems: false),
        Golden(source: "routines/weekly-review.rt", name: "weekly-review.dot", mermaid: false, problems: false),
        Golden(source: "Tests/RoutineKitTests/Fixtures/valid/torture.rt", name: "torture.dot", mermaid: false, problems: false),
        Golden(source: "Tests/RoutineKitTests/Fixtures/valid/torture.rt", name: "torture.mmd", mermaid: true, problems: false),
        Golden(source: "Tests/RoutineKitTests/Fixtures/graphs/invalid.rt", name: "invalid.dot", mermaid: false, problems: true),
        Golden(source: "Tests/RoutineKitTests/Fixtures/graphs/invalid.rt", name: "invalid.mmd", mermaid: true, problems: true),
    ]

    @Test(arguments: goldens)
    func matchesGolden(_ g: Golden) throws {
        let loaded = try Self.loadFile(g.source)
        var view = GraphView(loaded.routine, showProblems: g.problems)
        if g.problems { view.markInvalidAttributes(loaded.diagnostics, in: loaded.file) }
        let text = g.mermaid ? MermaidWriter.write(view) : DOTWriter.write(view)
        try assertGolden(text, Self.fixtures.appendingPathComponent("graphs/" + g.name))
    }

    @Test func invalidViewMarksEachProblem() throws {
        let dot = DOTWriter.write(GraphView(try Self.loadFile("Tests/RoutineKitTests/Fixtures/graphs/invalid.rt").routine, showProblems: true))
        #expect(dot.contains(#"" missing meditat" [shape=box, style=dashed, color=red"#))
        #expect(dot.contains(#""check" -> " missing meditat" [label="(2)", color=red, style=dashed]"#))
        #expect(dot.contains(#""coffee" -> "check" [color=red, penwidth=2]"#))
        #expect(dot.contains(#""check" -> "coffee" [label="(1)", color=red, penwidth=2]"#))
        #expect(dot.contains(#""lonely" [shape=box, style="rounded,dashed", label="Nobody comes here", color=gray60"#))
        // A target that did not parse is not drawn as a value nobody wrote.
        #expect(!dot.contains("target 1"))
    }

    @Test func invalidAttributesAreDrawnAsWritten() throws {
        let loaded = try Self.loadFile("Tests/RoutineKitTests/Fixtures/graphs/invalid.rt")
        var view = GraphView(loaded.routine, showProblems: true)
        view.markInvalidAttributes(loaded.diagnostics, in: loaded.file)
        let dot = DOTWriter.write(view)
        #expect(dot.contains(#"label="Walk\n10m\ntarget twenty glasses (invalid)""#))
        #expect(MermaidWriter.write(view).contains("Walk<br>10m<br>target twenty glasses (invalid)"))
        let (status, stderr) = try Self.graphviz(dot)
        #expect(status == 0 && stderr == "")
    }

    @Test func outputIsDeterministic() throws {
        let routine = try Self.loadFile("routines/evening.rt").routine
        #expect(DOTWriter.write(GraphView(routine, showProblems: false)) == DOTWriter.write(GraphView(routine, showProblems: false)))
    }

    @Test(arguments: [("a", "n_a"), ("a-b", "n_a_hb"), ("a_hb", "n_a__hb"), ("end", "n_end"), ("_", "n___")])
    func mermaidIDsAreDistinct(_ id: String, _ expected: String) {
        #expect(MermaidWriter.nodeID(id) == expected)
    }

    @Test func mermaidNeverUsesABareEnd() throws {
        let text = MermaidWriter.write(GraphView(try Self.loadFile("routines/morning.rt").routine, showProblems: false))
        let tokens = text.split(whereSeparator: { " \n|".contains($0) })
        #expect(!tokens.contains("end"))
    }

    /// A writer that starts small keeps everything across its growths.
    @Test func byteWriterGrowsAndKeepsItsBytes() {
        var out = ByteWriter(capacity: 4)
        out.write("literal, ")
        out.write(string: "a string of more than sixteen bytes, ")
        out.write(-1234)
        out.byte(UInt8(ascii: " "))
        Array("bytes".utf8).withUnsafeBufferPointer { out.write(bytes: $0) }
        for _ in 0..<100 { out.write("!") }
        #expect(out.text == "literal, a string of more than sixteen bytes, -1234 bytes" + String(repeating: "!", count: 100))
        #expect(out.bytes == Array(out.text.utf8))
    }

    /// Short pieces are copied in overlapping loads and stores: every length, after every
    /// offset, lands whole and touches nothing written before it.
    @Test(arguments: 0...20)
    func byteWriterCopiesEveryLengthWhole(_ length: Int) {
        let piece = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8.prefix(length))
        for offset in 0...9 {
            var out = ByteWriter(capacity: 1)
            for _ in 0..<offset { out.byte(UInt8(ascii: "-")) }
            piece.withUnsafeBufferPointer { out.write(bytes: $0) }
            out.byte(UInt8(ascii: "|"))
            #expect(out.bytes == Array(repeating: UInt8(ascii: "-"), count: offset) + piece + [UInt8(ascii: "|")], "after \(offset)")
        }
    }

    @Test(arguments: [0, 7, 10, -1, 1_000_000, Int.max, Int.min])
    func byteWriterWritesNumbersAsSwiftDoes(_ number: Int) {
        var out = ByteWriter(capacity: 1)
        out.write(number)
        #expect(out.text == String(number))
    }

    /// Labels are copied eight bytes at a time, and their last one to seven bytes as one word,
    /// up to the first byte that needs an escape; wherever that byte sits in a text of any
    /// length, the result is the scalar-by-scalar escape of the whole text.
    @Test(arguments: ["\"", "\\", "\n", "\r\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "\u{2028}", "é", "😀", "\u{FFFF}"])
    func escapeFindsTheFirstSpecialByteAnywhere(_ special: String) {
        let plain = "abcdefghijklmnopqrstuvwx"
        for length in 0...plain.count {
            for position in 0...length {
                var text = String(plain.prefix(length))
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                var out = ByteWriter()
                Array(text.utf8).withUnsafeBufferPointer { DOTWriter.escape($0, into: &out) }
                #expect("\"" + out.text + "\"" == DOTWriter.quote(text), "at \(position) of \(length)")
            }
        }
        for length in 0...17 {
            var out = ByteWriter()
            Array(plain.utf8.prefix(length)).withUnsafeBufferPointer { DOTWriter.escape($0, into: &out) }
            #expect(out.text == String(plain.prefix(length)))
        }
    }

    /// The DOT writer words a habit's attributes from its record; the words must be the ones
    /// ``GraphView/details(_:)`` gives, which Mermaid uses.
    @Test func detailsAreWordedAsInEveryDrawing() {
        let nodes: [RoutineNode] = [
            RoutineNode(kind: .habit, id: "a", title: "Sit", duration: 0),
            RoutineNode(kind: .habit, id: "b", title: "Sit", duration: 59),
            RoutineNode(kind: .habit, id: "c", title: "Sit", duration: 3600, days: .weekdays),
            RoutineNode(kind: .habit, id: "d", title: "Sit", duration: 5461, target: TargetValue(amount: 8, unit: "glasses")),
            RoutineNode(kind: .habit, id: "e", title: "Run", target: TargetValue(amount: 2.5, unit: "k\"m\\")),
            RoutineNode(kind: .habit, id: "f", title: "Run", target: TargetValue(amount: 1e12), days: [.monday, .saturday, .sunday]),
            RoutineNode(kind: .habit, id: "g", title: "Rest", days: .everyDay),
            RoutineNode(kind: .habit, id: "h", title: "Rest", days: .weekends),
            RoutineNode(kind: .habit, id: "i", title: "Plain"),
        ]
        let dot = DOTWriter.write(GraphView(Routine(name: "R", nodes: nodes), showProblems: false))
        for node in nodes {
            let label = node.title + (GraphView.details(node).map { "\n" + $0 } ?? "")
            #expect(dot.contains("\"\(node.id)\" [shape=box, style=\"rounded\", label=\(DOTWriter.quote(label))];"), "\(node.id)")
        }
    }

    /// A chain of `questions` two-answer questions, then `habits` habits: 3 labelled arrows a
    /// question (two answers and the gather).
    static func chain(questions: Int, habits: Int) -> Routine {
        let count = questions + habits
        func edge(_ i: Int) -> Edge { Edge(i < count ? .node(i) : .end, span: Span(at: 0)) }
        var nodes: [RoutineNode] = []
        for i in 0..<count {
            if i < questions {
                let options = [QuestionOption(text: "Yes", next: [edge(i + 1)]), QuestionOption(text: "No", next: [edge(i + 1)])]
                nodes.append(RoutineNode(kind: .question, id: "n\(i)", title: "Q", options: options, next: [edge(i + 1)]))
            } else {
                var node = RoutineNode(kind: .habit, id: "n\(i)", title: "H")
                node.next = [edge(i + 1)]
                nodes.append(node)
            }
        }
        return Routine(name: "Chain", nodes: nodes)
    }

    /// Arrow labels stay labels, laid out with room made for them, up to the limit `dot`
    /// lays out quickly; past it they are `xlabel`s. Large routines ask `dot` for less effort.
    @Test(arguments: [
        (questions: 20, habits: 0, xlabels: false, effort: false),
        (questions: 20, habits: 79, xlabels: false, effort: false),
        (questions: 21, habits: 0, xlabels: true, effort: false),
        (questions: 20, habits: 80, xlabels: false, effort: true),
        (questions: 150, habits: 50, xlabels: true, effort: true),
    ])
    func largeRoutinesAreDrawnTheWayDotLaysOutQuickly(questions: Int, habits: Int, xlabels: Bool, effort: Bool) {
        let routine = Self.chain(questions: questions, habits: habits)
        #expect(DOTWriter.labelledArrowLimit == 60 && DOTWriter.largeRoutine == 100)
        let dot = DOTWriter.write(GraphView(routine, showProblems: false))
        #expect(dot.contains(#""n0" -> "n1" [xlabel="Yes"];"#) == xlabels)
        #expect(dot.contains(#""n0" -> "n1" [label="Yes"];"#) == !xlabels)
        #expect(dot.contains(#"[xlabel="then", style=dashed]"#) == xlabels)
        #expect(dot.contains("nslimit=0.2, mclimit=0.3") == effort)
        #expect(!dot.contains("nslimit1"))
    }

    /// In a large routine an arrow crossing more than ``DOTWriter/farRankSpan`` ranks, or
    /// closing a loop, ends at a note by its tail that names its target; in a small one, and
    /// within the span, every arrow reaches its target.
    @Test(arguments: [
        (nodes: 120, from: 0, to: 8, far: false),
        (nodes: 120, from: 0, to: 9, far: true),
        (nodes: 120, from: 119, to: 3, far: true),
        (nodes: 99, from: 0, to: 60, far: false),
        (nodes: 99, from: 98, to: 3, far: false),
    ])
    func farArrowsEndAtANoteNamingTheirTarget(nodes: Int, from: Int, to: Int, far: Bool) {
        #expect(DOTWriter.farRankSpan == 8)
        var list: [RoutineNode] = []
        for i in 0..<nodes {
            var node = RoutineNode(kind: .habit, id: "n\(i)", title: i == to ? "Target" : "H")
            node.next = [Edge(i + 1 < nodes ? .node(i + 1) : .end, span: Span(at: 0))]
            if i == from { node.next.append(Edge(.node(to), span: Span(at: 0))) }
            list.append(node)
        }
        let dot = DOTWriter.write(GraphView(Routine(name: "Far", nodes: list), showProblems: false))
        let note = "  \" to n\(from)\" [shape=plaintext, fontsize=9, fontcolor=gray35, label=\"\u{21AA} Target\"];\n"
        #expect(dot.contains("  \"n\(from)\" -> \" to n\(from)\" [label=\"(2)\"];\n") == far)
        #expect(dot.contains(note) == far)
        #expect(dot.contains("  \"n\(from)\" -> \"n\(to)\" [label=\"(2)\"];") == !far)
        #expect(dot.components(separatedBy: " to ").count - 1 == (far ? 2 : 0))
    }

    /// Layouts' boxes in points, and whether 96 dpi keeps them within the PNG limits.
    @Test(arguments: [
        (435.25, 627.5, true),  // morning.rt
        (1900.0, 2800.0, true),  // 2,544 by 3,744 pixels: 9.5 million
        (2000.0, 2900.0, false),  // 2,677 by 3,877 pixels: 10.4 million
        (5626.5, 14364.0, false),  // 150 million pixels
        (200.0, 30000.0, false),  // 11 million pixels, but 40,010 high
    ])
    func pngResolution(width: Double, height: Double, fits: Bool) {
        let dpi = GraphvizRenderer.pngResolution(width: width, height: height)
        #expect((dpi == nil) == fits)
        guard let dpi else { return }
        let w = ((width + 8) / 72 * dpi).rounded(.up)
        let h = ((height + 8) / 72 * dpi).rounded(.up)
        #expect(w * h <= Double(GraphvizRenderer.pngPixelLimit))
        #expect(max(w, h) <= 32_767)
        #expect(w * h >= Double(GraphvizRenderer.pngPixelLimit) * 0.9 || max(w, h) >= 32_767 * 0.95)
        // The frame holds the picture drawn from the layout's box, and at most the limit's
        // pixels whatever `neato -n2` adds to that box.
        let frame = GraphvizRenderer.pngFrame(width: width, height: height, dpi: dpi)
        #expect(frame.width * dpi >= (width + 8) / 72 * dpi && frame.height * dpi >= (height + 8) / 72 * dpi)
        let (fw, fh) = ((frame.width * dpi).rounded(.up), (frame.height * dpi).rounded(.up))
        #expect(fw * fh <= Double(GraphvizRenderer.pngPixelLimit))
    }
}
