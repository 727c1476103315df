import RoutineKit

/// Where each node ID of a document is written: its declarations and every arrow or start
/// entry naming it, in source order, for navigation, rename and hover.
struct SymbolIndex: Sendable {
    /// One place an ID is written.
    struct Occurrence: Sendable {
        var span: Span
        /// The node it names; nil for `end` or a name no node declares.
        var node: Int?
        var name: String
        var isDeclaration: Bool
    }

    /// Sorted by position.
    let occurrences: [Occurrence]
    /// Per node: the spans naming it from arrows and the start list.
    let references: [[Span]]
    /// Per node: the nodes whose arrows (or options) lead to it, without repeats.
    let predecessors: [[Int]]
    /// Per node: from its header to the last thing it holds.
    let declarations: [Span]
    /// Per node: its options' spans, from the text to the end of the option's arrow.
    let options: [[(text: String, span: Span, textSpan: Span)]]

    init(_ loaded: LoadedRoutine) {
        let routine = loaded.routine
        let bytes = loaded.file.bytes
        let byID = routine.indexByID()
        var occurrences: [Occurrence] = []
        var references = [[Span]](repeating: [], count: routine.nodeCount)
        var predecessors = [[Int]](repeating: [], count: routine.nodeCount)
        var declarations: [Span] = []
        var options: [[(text: String, span: Span, textSpan: Span)]] = []
        declarations.reserveCapacity(routine.nodeCount)
        func note(_ edge: Edge, from: Int?) {
            let node = edge.target.nodeIndex
            occurrences.append(Occurrence(span: edge.span, node: node, name: routine.name(of: edge.target), isDeclaration: false))
            guard let node else { return }
            references[node].append(edge.span)
            if let from, predecessors[node].last != from { predecessors[node].append(from) }
        }
        for edge in routine.start { if routine.startSpan != nil { note(edge, from: nil) } }
        for (i, node) in routine.nodes.enumerated() {
            // A second declaration of an ID is an occurrence of the first node, so that rename
            // and references see both.
            occurrences.append(Occurrence(span: node.idSpan, node: byID[node.id] ?? i, name: node.id, isDeclaration: true))
            var end = node.titleSpan.upperBound
            for span in [node.arrowSpan, node.daysSpan, node.noteSpan].compactMap({ $0 }) { end = max(end, span.upperBound) }
            var own: [(text: String, span: Span, textSpan: Span)] = []
            for option in node.options {
                var optionEnd = option.textSpan.upperBound
                for edge in option.next {
                    note(edge, from: i)
                    optionEnd = max(optionEnd, edge.span.upperBound)
                }
                own.append((option.text, Span(start: option.textSpan.lowerBound, end: optionEnd), option.textSpan))
                end = max(end, optionEnd)
            }
            for edge in node.next {
                note(edge, from: i)
                end = max(end, edge.span.upperBound)
            }
            var start = node.idSpan.lowerBound
            while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
            declarations.append(Span(start: start, end: end))
            options.append(own)
        }
        occurrences.sort { $0.span.start < $1.span.start }
        self.occurrences = occurrences
        self.references = references
        self.predecessors = predecessors
        self.declarations = declarations
        self.options = options
    }

    /// The ID written at `offset` (touching it at either end counts, as editors place the
    /// cursor just after a word).
    func occurrence(at offset: Int) -> Occurrence? {
        var lo = 0
        var hi = occurrences.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if occurrences[mid].span.upperBound < offset { lo = mid + 1 } else { hi = mid }
        }
        guard lo < occurrences.count, occurrences[lo].span.lowerBound <= offset else { return nil }
        return occurrences[lo]
    }

    /// Every span naming `node`, its declarations first.
    func spans(of node: Int) -> [(span: Span, isDeclaration: Bool)] {
        occurrences.filter { $0.node == node }.map { ($0.span, $0.isDeclaration) }
    }
}
