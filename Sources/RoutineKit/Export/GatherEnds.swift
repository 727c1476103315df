/// Where a question's gather (`then -> ...`) is drawn from: the places its branches end, which
/// is where a run goes on to the gather. Shared by `graph`'s DOT and Mermaid and the studio.
public enum GatherEnds {
    /// A place a branch ends: a habit with no arrow of its own, or an answer with none.
    public enum Source: Hashable, Sendable {
        case node(Int)
        /// Answer `option` (its place among the question's answers) of question `node`.
        case option(node: Int, option: Int)

        public var node: Int {
            switch self {
            case .node(let n), .option(let n, _): n
            }
        }
    }

    /// The most nodes one question's walk looks at. Every question with a gather walks its
    /// own branches, so a routine whose branches run on to its last node instead of meeting
    /// at the gather (a generated one) would cost questions × nodes; bounded, a picture stays
    /// linear in the routine. Branches of a written routine meet long before this.
    public static let walkLimit = 256

    /// The ends of question `question`'s branches (see ``Walk/sources(of:)``). A drawing that
    /// asks for many questions uses one ``Walk``, which this makes afresh for each call.
    public static func sources(of question: Int, in routine: Routine) -> [Source] {
        var walk = Walk(routine)
        return walk.sources(of: question)
    }

    /// The nodes question `question`'s gather is drawn from (see ``Walk/tails(of:)``).
    public static func tails(of question: Int, in routine: Routine) -> [Int] {
        var walk = Walk(routine)
        return walk.tails(of: question)
    }

    /// Walks the branches of one question after another, with one mark per node reused by
    /// every walk, so that a question costs what its branches hold, not the routine's size.
    /// All the walks together look at no more than four times the routine's nodes: past that,
    /// the gathers left are drawn from their questions.
    public struct Walk {
        let routine: Routine
        /// `marks[n] == stamp`: node `n` was seen by the current walk.
        var marks: [UInt32]
        var stamp: UInt32 = 0
        var stack: [Int] = []
        /// How many more nodes the walks may look at.
        var budget: Int

        public init(_ routine: Routine) {
            self.routine = routine
            marks = Array(repeating: 0, count: routine.records.count)
            budget = 4 * max(routine.records.count, GatherEnds.walkLimit)
        }

        /// A stamp no node holds yet.
        mutating func nextStamp() -> UInt32 {
            if stamp == .max {
                for n in marks.indices { marks[n] = 0 }
                stamp = 0
            }
            stamp += 1
            return stamp
        }

        /// Marks `n` seen by the current walk; false when it already was.
        mutating func see(_ n: Int) -> Bool {
            guard marks[n] != stamp else { return false }
            marks[n] = stamp
            return true
        }

        /// Pushes the targets of `edges` not seen yet, reversed so that the first is looked at first.
        mutating func follow(_ edges: ArraySlice<Edge>) {
            for edge in edges.reversed() { if case .node(let t) = edge.target, see(t) { stack.append(t) } }
        }

        /// The ends of question `question`'s branches, in the order a reader meets them: its
        /// own answers without an arrow first, then the ends found following each answer's
        /// arrows. A branch that reaches the gather's own targets, or `end`, ends nowhere of its
        /// own. Empty when the question has no gather, every branch finishes the routine, or
        /// the branches hold more than ``GatherEnds/walkLimit`` nodes (or than the walks' budget
        /// has left) before they end: then the gather is drawn from the question, as when no
        /// branch ends.
        public mutating func sources(of question: Int) -> [Source] {
            let record = routine.records[question]
            guard record.kind == .question, record.next.count > 0 else { return [] }
            _ = nextStamp()
            stack.removeAll(keepingCapacity: true)
            var sources: [Source] = []
            _ = see(question)
            for edge in routine.edges[record.next.range] { if case .node(let t) = edge.target { _ = see(t) } }
            for (k, option) in record.options.enumerated() where routine.optionRecords[option].next.count == 0 {
                sources.append(.option(node: question, option: k))
            }
            for option in record.options.reversed() { follow(routine.edges[routine.optionRecords[option].next.range]) }
            // Each node is looked at once: the walk is linear in the branches' size.
            let limit = min(walkLimit, budget)
            var looked = 0
            while let n = stack.popLast() {
                looked += 1
                budget -= 1
                if looked > limit { return [] }
                let node = routine.records[n]
                if node.kind == .habit {
                    if node.next.count == 0 { sources.append(.node(n)) }
                    follow(routine.edges[node.next.range])
                } else {
                    for (k, option) in node.options.enumerated() where routine.optionRecords[option].next.count == 0 && node.next.count == 0 {
                        sources.append(.option(node: n, option: k))
                    }
                    follow(routine.edges[node.next.range])
                    for option in node.options.reversed() { follow(routine.edges[routine.optionRecords[option].next.range]) }
                }
            }
            return sources
        }

        /// The nodes the gather is drawn from, each once; the question itself when no branch ends.
        public mutating func tails(of question: Int) -> [Int] {
            let found = sources(of: question)
            _ = nextStamp()
            var tails: [Int] = []
            for source in found where see(source.node) { tails.append(source.node) }
            return tails.isEmpty ? [question] : tails
        }
    }
}
