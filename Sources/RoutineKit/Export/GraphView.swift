/// What a drawing of a routine needs beyond the routine itself: which nodes are unreachable
/// and which arrows lie on cycles, so that an invalid routine can be drawn with its problems
/// visible. Shared by the DOT and Mermaid writers.
public struct GraphView: Sendable {
    public let routine: Routine
    /// Whether each node can be reached from the start.
    public let reachable: [Bool]
    private let components: StronglyConnectedComponents
    /// Whether problems are marked (red cycles, dangling placeholders, grey unreachable nodes).
    public let showProblems: Bool

    public init(_ routine: Routine, showProblems: Bool) {
        self.routine = routine
        let graph = RoutineGraph(routine)
        reachable = graph.reachable(from: routine.start.compactMap(\.target.nodeIndex))
        components = StronglyConnectedComponents(graph)
        self.showProblems = showProblems
    }

    /// One arrow of the drawing.
    public struct Arrow: Sendable {
        public enum Kind: Sendable { case start, next, option, gather }
        public var from: Int?
        public var target: Target
        public var kind: Kind
        /// The answer for option arrows, numbered when an arrow list has several targets.
        public var label: String?
        public var onCycle: Bool
    }

    /// Every arrow in declaration order: start arrows first, then each node's.
    public var arrows: [Arrow] {
        var result: [Arrow] = []
        func add(_ edges: [Edge], from: Int?, kind: Arrow.Kind, text: String?) {
            for (k, edge) in edges.enumerated() {
                var label = text
                if edges.count > 1 { label = (text.map { $0 + " " } ?? "") + "(\(k + 1))" }
                var onCycle = false
                if let from, case .node(let to) = edge.target { onCycle = components.isCyclicEdge(from: from, to: to) }
                result.append(Arrow(from: from, target: edge.target, kind: kind, label: label, onCycle: onCycle))
            }
        }
        add(routine.start, from: nil, kind: .start, text: nil)
        for (i, node) in routine.nodes.enumerated() {
            for option in node.options { add(option.next, from: i, kind: .option, text: option.text) }
            add(node.next, from: i, kind: node.isQuestion ? .gather : .next, text: node.isQuestion ? "then" : nil)
        }
        return result
    }

    /// Whether any arrow leads to `end`.
    public var usesEnd: Bool { arrows.contains { $0.target == .end } }

    /// The attribute line under a habit's title: duration, target, days.
    public static func details(_ node: RoutineNode) -> String? {
        var parts: [String] = []
        if let seconds = node.duration { parts.append(DurationText.format(seconds)) }
        if let target = node.target { parts.append("target " + AnswerInterpreter.describe(target)) }
        if let days = node.days { parts.append(days.words.joined(separator: " ")) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Whether a node declared twice is the later copy, which drawings leave out.
    public func isRedeclaration(_ index: Int, firstIndex: [String: Int]) -> Bool {
        firstIndex[routine.nodes[index].id] != index
    }
}
