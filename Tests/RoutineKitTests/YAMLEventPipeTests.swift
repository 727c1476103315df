import Foundation
import Testing

@testable import RoutineKit

/// A large input is parsed on a side thread and handed over in chunks; every event must be
/// the one libyaml gives when read directly: kind, span, bytes, style, anchor and tag, up to
/// and including a syntax error at the end. The pipe copies each event's bytes into its
/// chunk, so a scalar longer than a chunk's first storage is among them.
struct YAMLEventPipeTests {
    /// About 1.5 MB of routine, a tag, a 200 KB note and non-ASCII titles in it (and an
    /// anchor, which a routine may not have, when `anchored`), then `tail`.
    static func large(tail: String, anchored: Bool = false, nodes: Int = 20_000) -> [UInt8] {
        var text = "routine: Big\nnodes:\n"
        for i in 0..<nodes {
            let title = (i == 7 ? "!secret " : i == 11 && anchored ? "&shared " : "") + "\"Step \(i) · é\""
            text += "  - habit: n\(i)\n    title: \(title)\n    next: \(i < nodes - 1 ? "n\(i + 1)" : "end")\n"
            if i == 13 { text += "    note: " + String(repeating: "long ", count: 40_000) + "\n" }
        }
        return Array((text + tail).utf8)
    }

    @Test(arguments: ["", "  - habit: x\n    title: \"unclosed\n"])
    func pipedEventsAreTheDirectOnes(_ tail: String) {
        let bytes = Self.large(tail: tail, anchored: true)
        #expect(bytes.count >= YAMLEventReader.pipedFrom)
        bytes.withUnsafeBufferPointer { buffer in
            let report = SelfCheck.pipe(buffer)
            #expect(report.difference == nil)
            #expect(report.endedInError == !tail.isEmpty, "only the broken input ends in an error")
            #expect(report.events > 100_000 || !tail.isEmpty)
        }
    }

    /// A reader dropped after a few events stops the side thread and waits for it, so the
    /// input can be freed: a schema error or an alias stops a load early.
    @Test func aReaderDroppedEarlyStopsItsParse() {
        for _ in 0..<20 {
            let bytes = Self.large(tail: "")
            bytes.withUnsafeBufferPointer { buffer in
                var reader = YAMLEventReader(buffer, piped: true)
                var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
                for _ in 0..<10 { _ = reader.read(into: &event) }
                #expect(event.kind == .scalar)
            }
        }
    }

    /// A large routine loads to the same routine and diagnostics as its small twin would.
    @Test func aLargeRoutineLoadsWholeThroughThePipe() {
        let nodes = 20_000
        let bytes = Self.large(tail: "", nodes: nodes)
        #expect(bytes.count >= YAMLEventReader.pipedFrom)
        let loaded = RoutineLoader.load(SourceFile(name: "big.yaml", bytes: bytes))
        #expect(loaded.routine.nodeCount == nodes)
        #expect(loaded.diagnostics.map(\.code) == [.yamlTag])
        #expect(loaded.routine.id(of: nodes - 1) == "n\(nodes - 1)")
    }
}

/// Small inputs read through the pipe give the events of a direct parse, up to and including
/// the error: routines written in every way the schema allows and a few it does not.
struct YAMLPipeInputTests {
    /// Routines and near-routines in every context the reader meets: node items at two
    /// indentations, options, flow and block `next`, block scalars of every chomping with
    /// trailing blank lines, empty values, comments, quoted scalars over lines, a key after the
    /// nodes, byte order marks, CRLF, control characters, and syntax errors early and late.
    static let inputs: [(name: String, text: String)] = {
        var nodes = ""
        for i in 0..<12 {
            nodes += "- question: q\(i)\n  prompt: \"Feeling é \(i)?\"\n  options:\n"
            nodes += "  - answer: yes\n    next: [h\(i), e\(i)]\n  - answer: no\n    next:\n    - e\(i)\n"
            nodes += "  # a comment between items\n\n"
            nodes += "- habit: h\(i)\n  title: Stretch\n  note: |\(i % 3 == 0 ? "+" : i % 3 == 1 ? "-" : "")\n    line one\n      indented\n\n\n"
            nodes += "- habit: e\(i)\n  title: >\n    folded\n    text\n  next:\n"
        }
        nodes += "- habit: last\n  title: 'quoted\n    over lines'\n"
        let indented = nodes.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        let head = "routine: Split\nnodes:\n"
        return [
            ("column 0", head + nodes),
            ("column 2", head + indented),
            ("crlf", (head + nodes).replacingOccurrences(of: "\n", with: "\r\n")),
            ("bom", "\u{FEFF}" + head + nodes),
            ("key after the nodes", head + nodes + "start: q0\n"),
            ("error late", head + nodes + "- habit: x\n  title: \"unclosed\n"),
            ("error early", head + "- habit: a\n  title: [unclosed\n" + nodes),
            ("literal at the top", "routine: |\n  - not an item\n  - nor this\nnodes:\n" + nodes),
            ("plain over lines", "routine: Split\nstart: a\n  - b\nnodes:\n" + nodes),
            ("flow over lines", head + "- habit: a\n  next: [b,\n- c]\n" + nodes),
            ("explicit document", "---\n" + head + nodes + "...\n"),
            ("two documents", head + nodes + "---\n" + head + nodes),
            ("a control character late", head + nodes + "- habit: x\n  title: a\u{7}b\n"),
            ("a control character early", head + "- habit: x\n  title: a\u{1}b\n" + nodes),
            ("a delete late", head + nodes + "- habit: x\n  title: a\u{7F}b\n"),
            ("emoji and a line separator", head + nodes.replacingOccurrences(of: "Stretch", with: "Stretch 🧘\u{2028}\u{85}")),
        ]
    }()

    @Test(arguments: inputs.indices)
    func pipedEventsAreTheDirectOnes(_ index: Int) {
        let (name, text) = Self.inputs[index]
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let report = SelfCheck.pipe(buffer)
            #expect(report.difference == nil, "\(name)")
            #expect(report.events > 100 || report.endedInError, "\(name)")
        }
    }
}
