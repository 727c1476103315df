/// Checks a routine's meaning, whatever form it was read from: text, edges, cycles,
/// reachability. Every check is linear in the size of the routine.
public enum Validator {
    /// At most this many cycles and suggestions are worked out in detail, so that a
    /// pathological file cannot make the report itself slow.
    static let detailLimit = 100

    public static func validate(_ routine: Routine) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if routine.name.isEmpty, !routine.nameSpan.isEmpty {
            diagnostics.append(.emptyText("the routine's name", at: routine.nameSpan))
        }
        if routine.nodes.isEmpty, !routine.nameSpan.isEmpty {
            diagnostics.append(.emptyRoutine(routine.name, at: routine.nameSpan))
        }
        var edgeChecker = EdgeChecker(routine: routine)
        edgeChecker.check(routine.explicitStart, isStart: true)
        // By index and in place: copying each node would retain and release all its parts.
        for i in routine.nodes.indices {
            // Passing a node copies it (retaining every part), so only nodes with something
            // to check are passed: questions, empty titles, schedules.
            if routine.nodes[i].kind == .question || routine.nodes[i].title.isEmpty || routine.nodes[i].daysSpan != nil {
                checkNode(routine.nodes[i], into: &diagnostics)
            }
            for k in routine.nodes[i].options.indices { edgeChecker.check(routine.nodes[i].options[k].next, isStart: false) }
            edgeChecker.check(routine.nodes[i].next, isStart: false)
        }
        diagnostics += edgeChecker.diagnostics

        let graph = RoutineGraph(routine)
        let components = StronglyConnectedComponents(graph)
        for cycle in components.representativeCycles(graph).prefix(detailLimit) {
            diagnostics.append(cycleDiagnostic(cycle, routine))
        }
        checkReachability(routine, graph, suggested: edgeChecker.suggestedNames, into: &diagnostics)
        return diagnostics
    }

    private static func checkNode(_ node: borrowing RoutineNode, into diagnostics: inout [Diagnostic]) {
        if node.title.isEmpty {
            let what = node.isHabit ? "the title of habit '\(node.id)'" : "the prompt of question '\(node.id)'"
            diagnostics.append(.emptyText(what, at: node.titleSpan))
        }
        if node.days == .everyDay, let span = node.daysSpan {
            diagnostics.append(.everyDay(node.id, at: span))
        }
        guard node.isQuestion else { return }
        switch node.options.count {
        case 0: diagnostics.append(.questionWithoutOptions(node.id, at: node.idSpan))
        case 1: diagnostics.append(.singleOption(node.id, at: node.idSpan))
        default:
            let first = node.options[0].next
            let same = node.options.dropFirst().allSatisfy { option in
                option.next.count == first.count && zip(option.next, first).allSatisfy { $0.target == $1.target }
            }
            if same { diagnostics.append(.optionsAllSame(node.id, at: node.idSpan)) }
        }
        // Few options: compare pairwise; many: a table, so 100,000 options stay linear.
        var seen: [String: Span]? = node.options.count > 8 ? [:] : nil
        for (k, option) in node.options.enumerated() {
            if option.text.isEmpty {
                diagnostics.append(.emptyText("an answer of question '\(node.id)'", at: option.textSpan))
                continue
            }
            let first = seen != nil
                ? seen?[option.text] : node.options[..<k].first(where: { $0.text == option.text })?.textSpan
            if let first {
                diagnostics.append(.duplicateOption(option.text, question: node.id, at: option.textSpan, first: first))
            } else {
                seen?[option.text] = option.textSpan
            }
        }
    }

    private static func cycleDiagnostic(_ cycle: [Int], _ routine: Routine) -> Diagnostic {
        var edges: [(from: String, to: String, span: Span)] = []
        for k in 0..<(cycle.count - 1) {
            let from = routine.nodes[cycle[k]]
            let span = edgeSpan(from: from, to: cycle[k + 1]) ?? from.idSpan
            edges.append((from.id, routine.nodes[cycle[k + 1]].id, span))
        }
        var names = cycle.map { routine.nodes[$0].id }
        if names.count > 12 {
            names = names.prefix(6) + ["... \(names.count - 10) more ..."] + names.suffix(4)
        }
        var shown = edges
        if shown.count > 20 { shown = Array(shown.prefix(20)) }
        var diagnostic = Diagnostic.cycle(path: names, at: edges.last!.span, edges: shown)
        if edges.count > shown.count {
            diagnostic.notes.insert(Note("and \(edges.count - shown.count) more arrows"), at: shown.count)
        }
        return diagnostic
    }

    private static func edgeSpan(from node: RoutineNode, to target: Int) -> Span? {
        for option in node.options {
            if let edge = option.next.first(where: { $0.target == .node(target) }) { return edge.span }
        }
        return node.next.first(where: { $0.target == .node(target) })?.span
    }

    /// Warns about nodes no path reaches, except a node that is the suggested fix for a
    /// misspelt arrow: once the typo is fixed it is reached, and the error already says so.
    private static func checkReachability(
        _ routine: Routine, _ graph: RoutineGraph, suggested: Set<String>, into diagnostics: inout [Diagnostic]
    ) {
        let roots = routine.start.compactMap(\.target.nodeIndex)
        let reached = graph.reachable(from: roots)
        var firstOfID: [String: Int]?
        for i in routine.nodes.indices where !reached[i] {
            // A redeclared ID is already an error; warning that the copy is unreachable adds nothing.
            if firstOfID == nil { firstOfID = routine.indexByID() }
            let id = routine.nodes[i].id
            guard firstOfID?[id] == i, !suggested.contains(id) else { continue }
            diagnostics.append(.unreachable(id, at: routine.nodes[i].idSpan))
        }
    }
}

/// Checks arrows: unknown targets (with a suggestion), repeated targets, targets after `end`.
private struct EdgeChecker {
    let routine: Routine
    var diagnostics: [Diagnostic] = []
    private var suggestions: [Int: String?] = [:]

    init(routine: Routine) { self.routine = routine }

    mutating func check(_ edges: [Edge], isStart: Bool) {
        var endSpan: Span?
        // Long lists use a table so that a node with 100,000 targets is not quadratic.
        var firstSpan: [Target: Span]? = edges.count > 16 ? [:] : nil
        for (k, edge) in edges.enumerated() {
            if let end = endSpan {
                diagnostics.append(.targetsAfterEnd(at: edge.span.union(edges.last!.span), end: end))
                break
            }
            switch edge.target {
            case .end:
                if isStart { diagnostics.append(.endAsStart(at: edge.span)) }
                endSpan = edge.span
            case .missing(let index):
                let name = routine.missingNames[index]
                diagnostics.append(.unknownTarget(name, at: edge.span, suggestion: suggestion(for: index), isStart: isStart))
            case .node:
                break
            }
            let first = firstSpan != nil
                ? firstSpan?[edge.target] : edges[..<k].first(where: { $0.target == edge.target })?.span
            if let first {
                diagnostics.append(.duplicateTarget(routine.name(of: edge.target), at: edge.span, first: first))
            } else {
                firstSpan?[edge.target] = edge.span
            }
        }
    }

    /// Every name suggested as a fix.
    var suggestedNames: Set<String> { Set(suggestions.values.compactMap { $0 }) }

    private mutating func suggestion(for missing: Int) -> String? {
        if let known = suggestions[missing] { return known }
        let found = suggestions.count < Validator.detailLimit
            ? closestMatch(to: routine.missingNames[missing], among: routine.nodes.lazy.map(\.id)) : nil
        suggestions[missing] = .some(found)
        return found
    }
}
