import Testing

@testable import RoutineKit

struct SymbolTableTests {
    /// Names of every length from 0 to 20, and pairs that differ in one byte at every place:
    /// the hash and the comparison read names in words and overlapping pieces.
    static var names: [String] {
        var names: [String] = []
        for length in 0...20 {
            let base = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            names.append(base)
            for place in 0..<length {
                var bytes = Array(base.utf8)
                bytes[place] = UInt8(ascii: "_")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return names
    }

    @Test func eachNameHasOneIDAndEachIDOneName() {
        var table = SymbolTable()
        let names = Self.names + (0..<5_000).map { "node\($0)" }
        let ids = names.map { table.intern($0) }
        #expect(ids == Array(0..<Int32(names.count)))
        #expect(table.count == names.count)
        for (name, id) in zip(names, ids) {
            #expect(table.intern(name) == id, "\(name)")
            #expect(table.name(id) == name)
        }
        #expect(table.count == names.count)
    }

    @Test func aPresizedTableGrowsToo() {
        var table = SymbolTable(capacity: 4)
        for k in 0..<1_000 { #expect(table.intern("n\(k)") == Int32(k)) }
        for k in 0..<1_000 { #expect(table.intern("n\(k)") == Int32(k)) }
    }
}

/// The records are a large routine's largest memory: an optional field added carelessly
/// rounds a record up by a word, a hundred thousand times.
struct RecordLayoutTests {
    @Test func recordsStayCompact() {
        #expect(MemoryLayout<NodeRecord>.stride <= 112)
        #expect(MemoryLayout<OptionRecord>.stride <= 32)
        #expect(MemoryLayout<Edge>.stride <= 12)
    }

    /// A run keeps several agenda changes for each step, for going back: a scripted run of a
    /// large routine keeps millions.
    @Test func agendaChangesStayCompact() {
        #expect(MemoryLayout<AgendaChange>.stride <= 8)
    }

    /// A scripted run keeps a record for every node it runs.
    @Test func runRecordsStayCompact() {
        #expect(MemoryLayout<RunRecord>.stride <= 32)
    }

    @Test(arguments: [Target.node(0), .node(1), .node(Int(Int32.max)), .end, .missing(0), .missing(7)])
    func edgesKeepTheirTargets(_ target: Target) {
        var edge = Edge(target, span: Span(start: 1, end: 2))
        #expect(edge.target == target && edge.span == Span(start: 1, end: 2))
        edge.target = .end
        #expect(edge.target == .end)
        edge.target = target
        #expect(edge == Edge(target, span: Span(start: 1, end: 2)))
    }

    @Test func absentSpansReadAsNone() {
        var record = NodeRecord(id: .none, title: .none, firstOption: 0, idSpan: Span(at: 0), titleSpan: Span(at: 0), kind: .habit)
        #expect(record.arrowSpan == nil && record.daysSpan == nil && record.noteSpan == nil)
        #expect(record.amount == nil && record.duration == nil)
        record.arrowSpan = Span(start: 3, end: 5)
        record.amount = 0.5
        record.duration = 0
        #expect(record.arrowSpan == Span(start: 3, end: 5) && record.daysSpan == nil)
        #expect(record.amount == 0.5 && record.duration == 0)
        record.arrowSpan = nil
        #expect(record.arrowSpan == nil)
    }
}
