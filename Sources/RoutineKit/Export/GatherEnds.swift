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

    /// The ends of question `question`'s branches, in the order a reader meets them: its own
    /// answers without an arrow first, then the ends found following each answer's arrows.
    /// A branch that reaches the gather's own targets, or `end`, ends nowhere of its own.
    /// Empty when the question has no gather, or every branch finishes the routine.
    public static func sources(of question: Int, in routine: Routine) -> [Source] {
        let record = routine.records[question]
        guard record.kind == .question, record.next.count > 0 else { return [] }
        var sources: [Source] = []
        var seen: Set<Int> = [question]
        for edge in routine.edges[record.next.range] { if case .node(let t) = edge.target { seen.insert(t) } }
        var stack: [Int] = []
        func follow(_ edges: ArraySlice<Edge>) {
            // Reversed onto the stack so that the first target is looked at first.
            for edge in edges.reversed() { if case .node(let t) = edge.target, seen.insert(t).inserted { stack.append(t) } }
        }
        for (k, option) in record.options.enumerated() where routine.optionRecords[option].next.count == 0 {
            sources.append(.option(node: question, option: k))
        }
        for option in record.options.reversed() { follow(routine.edges[routine.optionRecords[option].next.range]) }
        // Each node is looked at once: the walk is linear in the branches' size.
        while let n = stack.popLast() {
            let node = routine.records[n]
            if node.kind == .habit {
                if node.next.count == 0 { sources.append(.node(n)) }
            } else {
                for (k, option) in node.options.enumerated() where routine.optionRecords[option].next.count == 0 && node.next.count == 0 {
                    sources.append(.option(node: n, option: k))
                }
                follow(routine.edges[node.next.range])
                for option in node.options.reversed() { follow(routine.edges[routine.optionRecords[option].next.range]) }
            }
            if node.kind == .habit { follow(routine.edges[node.next.range]) }
        }
        return sources
    }

    /// The nodes the gather is drawn from, each once; the question itself when no branch ends.
    public static func tails(of question: Int, in routine: Routine) -> [Int] {
        var tails: [Int] = []
        for source in sources(of: question, in: routine) where !tails.contains(source.node) { tails.append(source.node) }
        return tails.isEmpty ? [question] : tails
    }
}
