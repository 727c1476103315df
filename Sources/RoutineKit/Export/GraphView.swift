/// What a drawing of a routine needs beyond the routine itself: which nodes are unreachable
/// and which arrows lie on cycles, so that an invalid routine can be drawn with its problems
/// visible. Shared by the DOT and Mermaid writers.
public struct GraphView: Sendable {
    public let routine: Routine
    /// Whether each node can be reached from the start; all true unless problems are shown.
    public let reachable: [Bool]
    /// Cycles, worked out only when problems are shown: a valid routine has none.
    private let components: StronglyConnectedComponents?
    /// Whether problems are marked (red cycles, dangling placeholders, grey unreachable nodes).
    public let showProblems: Bool
    /// The first node of each ID, only for an invalid routine, which may declare an ID twice.
    private let firstOfID: [String: Int]?
    /// Attributes that did not parse, as written, by node: drawn marked as invalid, so that a
    /// drawing never shows a value the author did not write.
    public var invalidAttributes: [Int: [String]] = [:]
    /// The history drawn on the graph (`graph --stats`), if any.
    public var history: GraphHistory?
    /// A comment Graphviz carries into the image (the language server's mark on its drawings).
    public var comment: String?

    public init(_ routine: Routine, showProblems: Bool) {
        self.routine = routine
        self.showProblems = showProblems
        if showProblems {
            let graph = RoutineGraph(routine)
            reachable = graph.reachable(from: routine.start.compactMap(\.target.nodeIndex))
            components = StronglyConnectedComponents(graph)
            firstOfID = routine.indexByID()
        } else {
            reachable = Array(repeating: true, count: routine.nodeCount)
            components = nil
            firstOfID = nil
        }
    }

    /// One arrow of the drawing. A gather's starts where a branch of its question ends
    /// (``GatherEnds``), so its `from` may be a habit of the branch.
    public struct Arrow {
        public enum Kind: Sendable { case start, next, option, gather }
        public var from: Int?
        public var target: Target
        public var kind: Kind
        /// The answer of an option arrow, or "then" for a gather.
        public var text: String?
        /// The target's place in its list, when the list has several targets.
        public var order: Int?
        public var onCycle: Bool
        /// An option arrow's answer, by its place among the question's options.
        public var option: Int?

        /// The arrow's label: the answer, and its order when one arrow lists several targets.
        public var label: String? {
            guard let order else { return text }
            return (text.map { $0 + " " } ?? "") + "(\(order))"
        }
    }

    /// Calls `body` with every arrow in declaration order: start arrows first, then each node's.
    public func forEachArrow(_ body: (Arrow) -> Void) {
        func visit(_ edges: ArraySlice<Edge>, from: Int?, kind: Arrow.Kind, text: String?, option: Int? = nil) {
            for (k, edge) in edges.enumerated() {
                var onCycle = false
                if let from, let components, case .node(let to) = edge.target { onCycle = components.isCyclicEdge(from: from, to: to) }
                body(
                    Arrow(
                        from: from, target: edge.target, kind: kind, text: text, order: edges.count > 1 ? k + 1 : nil, onCycle: onCycle,
                        option: option))
            }
        }
        visit(routine.start[...], from: nil, kind: .start, text: nil)
        var walk = GatherEnds.Walk(routine)
        for i in routine.records.indices {
            let record = routine.records[i]
            for (n, k) in record.options.enumerated() {
                let option = routine.optionRecords[k]
                visit(routine.edges[option.next.range], from: i, kind: .option, text: routine.text.string(option.text), option: n)
            }
            guard record.kind == .question else {
                visit(routine.edges[record.next.range], from: i, kind: .next, text: nil)
                continue
            }
            // Drawn from where the branches end, which is where a run goes on to it.
            for tail in walk.tails(of: i) {
                visit(routine.edges[record.next.range], from: tail, kind: .gather, text: "then")
            }
        }
    }

    /// Every arrow, in the order of ``forEachArrow(_:)``.
    public var arrows: [Arrow] {
        var result: [Arrow] = []
        forEachArrow { result.append($0) }
        return result
    }

    /// Whether any arrow leads to `end`.
    public var usesEnd: Bool {
        routine.start.contains { $0.target == .end } || routine.edges.contains { $0.target == .end }
    }

    /// The attribute line under a habit's title: duration, target, days.
    public static func details(_ node: RoutineNode) -> String? {
        var parts: [String] = []
        if let seconds = node.duration { parts.append(DurationText.human(seconds)) }
        if let target = node.target { parts.append(target.dayText) }
        if let days = node.days { parts.append(days.words.joined(separator: " ")) }
        if let perWeek = node.perWeek { parts.append("\(perWeek) per week") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Whether the arrow from `from` to `to` lies on a cycle; false unless problems are shown.
    func isCyclicEdge(from: Int, to: Int) -> Bool { components?.isCyclicEdge(from: from, to: to) ?? false }

    /// Whether a node declared twice is the later copy, which drawings leave out.
    public func isRedeclaration(_ index: Int) -> Bool {
        guard let firstOfID else { return false }
        return firstOfID[routine.id(of: index)] != index
    }

    /// Marks the attribute of each duration, target or day diagnostic in `diagnostics` on the
    /// node whose declaration holds it, as the line of `file` it is written on.
    public mutating func markInvalidAttributes(_ diagnostics: [Diagnostic], in file: SourceFile) {
        let codes: Set<DiagnosticCode> = [.invalidDuration, .invalidNumber, .unknownDay]
        let starts = routine.records.map(\.idSpan.lowerBound)
        var lines: LineTable?
        for diagnostic in diagnostics where codes.contains(diagnostic.code) {
            guard let span = diagnostic.span else { continue }
            // The last node declared before the attribute: records are in source order.
            var low = 0
            var high = starts.count
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] <= span.lowerBound { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { continue }
            if lines == nil { lines = LineTable(file) }
            let line = String(decoding: lines!.lineBytes(lines!.lineIndex(of: span.lowerBound)), as: UTF8.self)
            var written = Substring(line).drop { $0 == " " || $0 == "\t" || $0 == "-" }
            while written.last == " " || written.last == "\t" { written = written.dropLast() }
            if !(invalidAttributes[low - 1]?.contains(String(written)) ?? false) {
                invalidAttributes[low - 1, default: []].append(String(written))
            }
        }
    }
}
