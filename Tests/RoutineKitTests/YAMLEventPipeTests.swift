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

    @Test(arguments: ["", "  - habit: x\n    title: \"unclosed\n"], [false, true])
    func pipedEventsAreTheDirectOnes(_ tail: String, inHalves: Bool) {
        let bytes = Self.large(tail: tail, anchored: true)
        #expect(bytes.count >= YAMLEventReader.pipedFrom)
        bytes.withUnsafeBufferPointer { buffer in
            let split = inHalves ? YAMLSplit.find(in: buffer) : nil
            #expect(split?.indent == (inHalves ? 2 : nil))
            let report = SelfCheck.halves(buffer, split: split)
            #expect(report.difference == nil)
            #expect(report.endedInError == !tail.isEmpty, "only the broken input ends in an error")
            #expect(report.events > 100_000 || !tail.isEmpty)
            // A broken tail is in the second half, which then cannot join.
            #expect(report.joined == (inHalves && tail.isEmpty))
        }
    }

    /// A reader dropped after a few events stops the side thread and waits for it, so the
    /// input can be freed: a schema error or an alias stops a load early.
    @Test(arguments: [false, true])
    func aReaderDroppedEarlyStopsItsParse(inHalves: Bool) {
        for _ in 0..<20 {
            let bytes = Self.large(tail: "")
            bytes.withUnsafeBufferPointer { buffer in
                var reader = YAMLEventReader(buffer, piped: true, split: inHalves ? YAMLSplit.find(in: buffer) : nil)
                var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
                for _ in 0..<10 { _ = reader.read(into: &event) }
                #expect(event.kind == .scalar)
            }
        }
    }

    /// A large routine loads to the same routine and diagnostics as its small twin would.
    /// The second half's events wait in memory until the first half is read: each stays at
    /// 24 bytes, its scalar's bytes apart.
    @Test func pipedEventsStayCompact() {
        #expect(MemoryLayout<PipedEvent>.stride <= 24)
    }

    /// Above ``YAMLEventReader/splitFrom``, in two halves that join.
    @Test(arguments: [20_000, 40_000])
    func aLargeRoutineLoadsWholeThroughThePipe(nodes: Int) {
        let bytes = Self.large(tail: "", nodes: nodes)
        let loaded = RoutineLoader.load(SourceFile(name: "big.yaml", bytes: bytes))
        #expect(loaded.routine.nodeCount == nodes)
        #expect(loaded.diagnostics.map(\.code) == [.yamlTag])
        #expect(loaded.routine.id(of: nodes - 1) == "n\(nodes - 1)")
        bytes.withUnsafeBufferPointer { buffer in
            let split = buffer.count >= YAMLEventReader.splitFrom ? YAMLSplit.find(in: buffer) : nil
            #expect((split != nil) == (nodes == 40_000))
            if let split { #expect(SelfCheck.halves(buffer, split: split).joined) }
        }
    }
}

/// A large input parsed in two halves, split at a line of the nodes' sequence, must give
/// exactly the events of one parse of the whole; where the halves cannot join (the line is
/// not an item of that sequence, a half has a syntax error, a key follows the nodes), the
/// pipe reads the whole again past what it handed over. Every line that looks like an item is
/// tried as the split, on routines written in every way the schema allows and a few it does not.
struct YAMLSplitTests {
    /// Routines and near-routines whose lines start with `- ` in every context: node items at
    /// two indentations, options, flow and block `next`, block scalars of every chomping with
    /// trailing blank lines, empty values, comments, quoted scalars over lines, a key after the
    /// nodes, and syntax errors in either half.
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

    static let joins = [
        "column 0": 36, "column 2": 36, "crlf": 36, "bom": 36, "key after the nodes": 0, "error late": 0, "error early": 0,
        "literal at the top": 36, "plain over lines": 36, "flow over lines": 0, "explicit document": 0, "two documents": 36,
        "a control character late": 0, "a control character early": 0, "a delete late": 0, "emoji and a line separator": 36,
    ]

    @Test(arguments: inputs.indices)
    func halvesGiveTheEventsOfTheWhole(_ index: Int) {
        let (name, text) = Self.inputs[index]
        let bytes = Array(text.utf8)
        var joined = 0
        bytes.withUnsafeBufferPointer { buffer in
            let splits = YAMLSplit.candidates(in: buffer)
            #expect(splits.count > 20, "\(name)")
            for split in splits {
                let report = SelfCheck.halves(buffer, split: split)
                #expect(report.difference == nil, "\(name), split at \(split)")
                if report.joined { joined += 1 }
            }
        }
        // The halves join at every item of the nodes but the first (the first half would
        // end before the sequence starts), at no item of a node's options (a node follows at a
        // lesser indentation), and nowhere that a scalar, a flow or an error cuts through.
        #expect(joined == Self.joins[name], "\(name): \(joined) splits joined")
    }
}
