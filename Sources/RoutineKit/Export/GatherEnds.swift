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
        /// Room for every node: a walk pushes each at most once.
        var stack: [Int32]
        /// How many more nodes the walks may look at.
        var budget: Int

        public init(_ routine: Routine) {
            self.routine = routine
            marks = Array(repeating: 0, count: routine.records.count)
            stack = Array(repeating: 0, count: routine.records.count)
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
            let stamp = nextStamp()
            // Moved out for the walk, so that it runs over buffers without touching `self`:
            // a picture of a generated routine walks hundreds of thousands of nodes.
            var marks: [UInt32] = []
            var stack: [Int32] = []
            swap(&marks, &self.marks)
            swap(&stack, &self.stack)
            defer {
                swap(&marks, &self.marks)
                swap(&stack, &self.stack)
            }
            let limit = min(walkLimit, budget)
            var looked = 0
            let found = routine.withBuffers { buffers in
                marks.withUnsafeMutableBufferPointer { marks in
                    stack.withUnsafeMutableBufferPointer { stack in
                        Self.walk(
                            from: question, buffers, marks: marks, stamp: stamp, stack: stack, limit: limit, looked: &looked)
                    }
                }
            }
            budget -= looked
            return found ?? []
        }

        /// ``sources(of:)`` over the routine's buffers; nil past `limit` nodes. `stack` has room
        /// for every node, as a node is pushed at most once a walk.
        private static func walk(
            from question: Int, _ buffers: RoutineBuffers, marks: UnsafeMutableBufferPointer<UInt32>, stamp: UInt32,
            stack: UnsafeMutableBufferPointer<Int32>, limit: Int, looked: inout Int
        ) -> [Source]? {
            var top = 0
            @inline(__always) func see(_ n: Int) -> Bool {
                guard marks[n] != stamp else { return false }
                marks[n] = stamp
                return true
            }
            // Pushes the targets not seen yet, the last first, so that the first is looked at first.
            @inline(__always) func follow(_ range: EdgeRange) {
                var k = range.range.upperBound
                while k > range.range.lowerBound {
                    k -= 1
                    if case .node(let t) = buffers.edges[k].target, see(t) {
                        stack[top] = Int32(t)
                        top += 1
                    }
                }
            }
            @inline(__always) func hasArrow(_ option: Int) -> Bool { buffers.options[option].next.count > 0 }
            let record = buffers.records[question]
            var sources: [Source] = []
            _ = see(question)
            for edge in buffers.edges(record.next) { if case .node(let t) = edge.target { _ = see(t) } }
            for (k, option) in record.options.enumerated() where !hasArrow(option) {
                sources.append(.option(node: question, option: k))
            }
            for option in record.options.reversed() { follow(buffers.options[option].next) }
            // Each node is looked at once: the walk is linear in the branches' size.
            while top > 0 {
                top -= 1
                let n = Int(stack[top])
                looked += 1
                if looked > limit { return nil }
                let node = buffers.records[n]
                if node.kind == .habit {
                    if node.next.count == 0 { sources.append(.node(n)) }
                    follow(node.next)
                } else {
                    if node.next.count == 0 {
                        for (k, option) in node.options.enumerated() where !hasArrow(option) {
                            sources.append(.option(node: n, option: k))
                        }
                    }
                    follow(node.next)
                    for option in node.options.reversed() { follow(buffers.options[option].next) }
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
