import Foundation
import Testing

@testable import RoutineKit

struct YAMLReaderTests {
    static let ok = "routine: R\nnodes:\n"

    static let cases: [CodesCase] = [
        CodesCase(name: "clean", yaml: ok + "  - habit: a\n    title: A\n    next: b\n  - habit: b\n    title: B\n", codes: []),
        CodesCase(name: "syntax error", yaml: ok + "  - habit: a\n    title: \"unclosed\n", codes: ["E301"]),
        CodesCase(name: "unknown key", yaml: ok + "  - habit: a\n    titel: A\n", codes: ["E302"]),
        CodesCase(name: "duplicate key", yaml: ok + "  - habit: a\n    title: A\n    title: B\n", codes: ["E303"]),
        CodesCase(name: "list where a string belongs", yaml: ok + "  - habit: a\n    title: [x, y]\n", codes: ["E304"]),
        CodesCase(name: "target many", yaml: ok + "  - habit: a\n    title: A\n    target: many\n", codes: ["E304"]),
        CodesCase(name: "null title", yaml: ok + "  - habit: a\n    title:\n", codes: ["E304"]),
        CodesCase(name: "missing routine", yaml: "nodes:\n  - habit: a\n    title: A\n", codes: ["E305"]),
        CodesCase(name: "missing nodes", yaml: "routine: R\n", codes: ["E305"]),
        CodesCase(name: "missing kind", yaml: ok + "  - title: A\n", codes: ["E305"]),
        CodesCase(name: "both habit and question", yaml: ok + "  - habit: a\n    question: a\n    title: A\n", codes: ["E306"]),
        CodesCase(name: "prompt on a habit", yaml: ok + "  - habit: a\n    prompt: A\n", codes: ["E302"]),
        CodesCase(
            name: "duration on a question",
            yaml: ok + "  - question: q\n    prompt: Q\n    for: 5m\n    options:\n      - answer: x\n        next: end\n      - answer: y\n",
            codes: ["E106"]),
        CodesCase(name: "bad duration", yaml: ok + "  - habit: a\n    title: A\n    for: 5 minutes\n", codes: ["E108"]),
        CodesCase(name: "unknown day", yaml: ok + "  - habit: a\n    title: A\n    on: [mon, funday]\n", codes: ["E110"]),
        CodesCase(name: "invalid id", yaml: ok + "  - habit: a b\n    title: A\n", codes: ["E004"]),
        CodesCase(name: "alias", yaml: "routine: &n R\nnodes: []\n", codes: ["E307"]),
        CodesCase(name: "billion laughs", yaml: "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n", codes: ["E302", "E307"]),
        CodesCase(name: "two documents", yaml: "routine: R\nnodes: []\n---\nroutine: S\n", codes: ["E309"]),
        CodesCase(name: "tag", yaml: ok + "  - habit: a\n    title: !secret A\n", codes: ["E310"]),
        CodesCase(name: "standard tag is fine", yaml: ok + "  - habit: a\n    title: !!str 12\n", codes: []),
        CodesCase(name: "non-string key", yaml: "routine: R\n[a]: 1\nnodes: []\n", codes: ["E304"]),
        CodesCase(name: "top level list", yaml: "- a\n- b\n", codes: ["E304"]),
        CodesCase(name: "empty file", yaml: "", codes: ["E305"]),
        CodesCase(name: "dangling edge after loading", yaml: ok + "  - habit: a\n    title: A\n    next: nowhere\n", codes: ["E202"]),
        CodesCase(name: "cycle after loading", yaml: ok + "  - habit: a\n    title: A\n    next: a\n", codes: ["E204"]),
        CodesCase(
            name: "option without answer",
            yaml: ok + "  - question: q\n    prompt: Q\n    options:\n      - next: end\n      - answer: y\n      - answer: z\n        next: end\n",
            codes: ["E305"]),
        CodesCase(name: "unit without target", yaml: ok + "  - habit: a\n    title: A\n    unit: glasses\n", codes: ["E305"]),
    ]

    @Test(arguments: cases)
    func reports(_ c: CodesCase) {
        #expect(codes(c.source, format: .yaml) == c.codes)
    }

    @Test func deepNestingFailsFast() {
        let depth = 100_000
        let yaml = "routine: R\nnodes: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = codes(yaml, format: .yaml) }
        #expect(found.last == "E308")
        #expect(elapsed < .seconds(2))
    }

    @Test func positionsPointAtTheValue() {
        let loaded = load("routine: R\nnodes:\n  - habit: a\n    title: \"é😀\"\n    next: nowhere\n", format: .yaml)
        let d = loaded.diagnostics.first!
        let (line, column) = LineTable(loaded.file).location(of: d.span!.lowerBound)
        #expect((line, column) == (5, 11))
        #expect(d.fixIt == nil)
    }

    /// Options and arrows go into the routine's arrays as they are read, so a node or an
    /// option that is then dropped must take its own back, and leave the others' intact.
    @Test func droppedNodesAndOptionsLeaveNoEdgesBehind() {
        let yaml =
            Self.ok + """
                  - question: q
                    next: [a]
                    options:
                      - next: [x1, x2]
                      - answer: Yes
                        next: b
                    prompt: Q
                  - title: No kind
                    next: [x3, x4, x5]
                    options:
                      - answer: Lost
                        next: x6
                  - habit: a
                    title: A
                    next: b
                  - habit: b
                    title: B

                """
        let loaded = load(yaml, format: .yaml)
        #expect(loaded.diagnostics.map(\.code.rawValue) == ["W003", "E305", "E305"])
        let routine = loaded.routine
        #expect(routine.edges.count == 3)
        #expect(routine.optionRecords.count == 1)
        #expect(
            dump(routine) == """
                routine R
                question q [Q] {Yes -> b} -> a
                habit a [A] -> b
                habit b [B]
                """)
    }

    @Test func unknownKeySuggestsTheClosest() {
        let d = load(Self.ok + "  - habit: a\n    titel: A\n", format: .yaml).diagnostics.first { $0.code == .unknownKey }
        #expect(d?.fixIt?.replacement == "title")
    }

    @Test func yamlTwinsMeanTheSameAsTheirRtFiles() throws {
        for name in ["morning", "workout"] {
            let rt = try String(contentsOf: packageRoot.appendingPathComponent("routines/\(name).rt"), encoding: .utf8)
            let yaml = try String(contentsOf: packageRoot.appendingPathComponent("routines/\(name).yaml"), encoding: .utf8)
            #expect(load(rt).routine.isEquivalent(to: load(yaml, format: .yaml).routine), "\(name)")
        }
    }
}
