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
    static func large(tail: String, anchored: Bool = false) -> [UInt8] {
        var text = "routine: Big\nnodes:\n"
        for i in 0..<20_000 {
            let title = (i == 7 ? "!secret " : i == 11 && anchored ? "&shared " : "") + "\"Step \(i) · é\""
            text += "  - habit: n\(i)\n    title: \(title)\n    next: \(i < 19_999 ? "n\(i + 1)" : "end")\n"
            if i == 13 { text += "    note: " + String(repeating: "long ", count: 40_000) + "\n" }
        }
        return Array((text + tail).utf8)
    }

    struct Event: Equatable {
        var kind: String, span: Span, bytes: [UInt8], isPlain: Bool, hasAnchor: Bool, tag: String?
        init(_ e: YAMLEvent) {
            hasAnchor = e.hasAnchor
            kind = "\(e.kind)"
            span = e.span
            bytes = e.kind == .scalar ? Array(e.bytes) : []
            isPlain = e.kind == .scalar && e.isPlain
            tag = e.tag.map { String(cString: $0) }
        }
    }

    @Test(arguments: ["", "  - habit: x\n    title: \"unclosed\n"])
    func pipedEventsAreTheDirectOnes(_ tail: String) {
        let bytes = Self.large(tail: tail, anchored: true)
        #expect(bytes.count >= YAMLEventReader.pipedFrom)
        bytes.withUnsafeBufferPointer { buffer in
            let direct = YAMLEventSource(buffer)
            var reader = YAMLEventReader(buffer)
            var a = YAMLEvent(kind: .streamStart, span: Span(at: 0))
            var b = a
            var count = 0
            while true {
                let okDirect = direct.read(into: &a)
                let okPiped = reader.read(into: &b)
                #expect(okDirect == okPiped)
                guard okDirect, okPiped else {
                    #expect(direct.syntaxError() == reader.syntaxError())
                    #expect(!tail.isEmpty, "only the broken input ends in an error")
                    break
                }
                if Event(a) != Event(b) {
                    Issue.record("event \(count) differs: \(Event(a)) and \(Event(b))")
                    break
                }
                count += 1
                if a.kind == .streamEnd { break }
            }
            #expect(count > 100_000 || !tail.isEmpty)
        }
    }

    /// A reader dropped after a few events stops the side thread and waits for it, so the
    /// input can be freed: a schema error or an alias stops a load early.
    @Test func aReaderDroppedEarlyStopsItsParse() {
        for _ in 0..<20 {
            let bytes = Self.large(tail: "")
            bytes.withUnsafeBufferPointer { buffer in
                var reader = YAMLEventReader(buffer)
                var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
                for _ in 0..<10 { _ = reader.read(into: &event) }
                #expect(event.kind == .scalar)
            }
        }
    }

    /// A large routine loads to the same routine and diagnostics as its small twin would.
    @Test func aLargeRoutineLoadsWholeThroughThePipe() {
        let loaded = RoutineLoader.load(SourceFile(name: "big.yaml", bytes: Self.large(tail: "")))
        #expect(loaded.routine.nodeCount == 20_000)
        #expect(loaded.diagnostics.map(\.code) == [.yamlTag])
        #expect(loaded.routine.id(of: 19_999) == "n19999")
    }
}
