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
        let view = GraphView(try Self.loadFile(g.source).routine, showProblems: g.problems)
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

    /// A copied writer has its own bytes: writing to one never shows in the other.
    @Test func byteWriterCopiesAreIndependent() {
        var a = ByteWriter(capacity: 4)
        a.write("shared ")
        var b = a
        a.write("first, then a longer text that grows the buffer")
        b.write("second")
        b.byte(UInt8(ascii: "!"))
        #expect(a.text == "shared first, then a longer text that grows the buffer")
        #expect(b.text == "shared second!")
        #expect(b.bytes == Array("shared second!".utf8))
    }
}
