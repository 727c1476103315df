/// Checks a routine's meaning, whatever form it was read from: text, edges, cycles,
/// reachability. Every check is linear in the size of the routine.
public enum Validator {
    /// At most this many cycles and suggestions are worked out in detail, so that a
    /// pathological file cannot make the report itself slow.
    static let detailLimit = 100

    /// `form` words the advice for the form the routine was written in; in YAML a question
    /// without options has been reported by the reader, in its own terms.
    public static func validate(_ routine: Routine, form: SourceFormat = .rt) -> DiagnosticList {
        var memo = SuggestionMemo()
        return validate(routine, form: form, suggestions: &memo)
    }

    /// The same, reusing the "did you mean" answers of `memo` when it was left by a routine with
    /// the same IDs (an earlier version of the document), and leaving this routine's in it.
    public static func validate(_ routine: Routine, form: SourceFormat = .rt, suggestions memo: inout SuggestionMemo) -> DiagnosticList {
        validate(routine, form: form, suggestions: &memo, alongsideFrom: alongsideFrom)
    }

    /// The same, the graph's checks on a second thread from `alongsideFrom` nodes.
    static func validate(
        _ routine: Routine, form: SourceFormat, suggestions memo: inout SuggestionMemo, alongsideFrom: Int
    ) -> DiagnosticList {
        var diagnostics = DiagnosticList()
        if routine.name.isEmpty, !routine.nameSpan.isEmpty {
            diagnostics.append(.emptyText("the routine's name", at: routine.nameSpan))
        }
        checkNUL(routine, into: &diagnostics)
        if routine.records.isEmpty, !routine.nameSpan.isEmpty {
            diagnostics.append(.emptyRoutine(routine.name, at: routine.nameSpan))
        }
        let shape: GraphShape
        let (nodes, edgeChecker): (DiagnosticList, EdgeChecker)
        let given = memo
        if routine.records.count >= alongsideFrom {
            // The graph's large arrays are made on this thread, whose freed memory the rest of
            // the command (a run, a picture) reuses; the nodes' checks allocate little.
            ((nodes, edgeChecker), shape) = alongside({ checkNodes(routine, form: form, memo: given) }, { GraphShape(routine) })
        } else {
            (nodes, edgeChecker) = checkNodes(routine, form: form, memo: given)
            shape = GraphShape(routine)
        }
        diagnostics += nodes
        diagnostics += edgeChecker.diagnostics
        memo = SuggestionMemo(routine: routine, answers: edgeChecker.answers)
        for cycle in shape.cycles { diagnostics.append(cycleDiagnostic(cycle, routine)) }
        checkReachability(routine, shape.unreachable, suggested: edgeChecker.suggestedNames, form: form, into: &diagnostics)
        return diagnostics
    }

    /// Each node's own checks, and its arrows', in file order.
    private static func checkNodes(_ routine: Routine, form: SourceFormat, memo: SuggestionMemo) -> (DiagnosticList, EdgeChecker) {
        var diagnostics = DiagnosticList()
        var edgeChecker = EdgeChecker(routine: routine, memo: memo)
        routine.explicitStart.withUnsafeBufferPointer { edgeChecker.check($0, isStart: true) }
        routine.edges.withUnsafeBufferPointer { edges in
            for i in routine.records.indices {
                let record = routine.records[i]
                if record.kind == .question || record.title.count == 0 || record.daysSpan != nil {
                    checkNode(record, of: routine, edges: edges, form: form, into: &diagnostics)
                }
                for k in record.options {
                    edgeChecker.check(UnsafeBufferPointer(rebasing: edges[routine.optionRecords[k].next.range]), isStart: false)
                }
                edgeChecker.check(UnsafeBufferPointer(rebasing: edges[record.next.range]), isStart: false)
            }
        }
        return (diagnostics, edgeChecker)
    }

    /// From this many nodes, the nodes and arrows are checked on a second thread while the
    /// graph's checks run on this one: each is about half of validating a large routine, and
    /// validating is what is left once a large file is read. Below, a thread costs more than
    /// it saves.
    static let alongsideFrom = 20_000

    /// What the checks of the routine as a graph find, without a word of the report: worked
    /// out apart from the checks of nodes and arrows, and at the same time on a large routine.
    private struct GraphShape: Sendable {
        /// One cycle through each cyclic part, at most ``Validator/detailLimit``.
        let cycles: [[Int]]
        let unreachable: [UnreachableRegions.Region]

        init(_ routine: Routine) {
            let graph = RoutineGraph(routine)
            let components = StronglyConnectedComponents(graph)
            cycles = Array(components.representativeCycles(graph).prefix(detailLimit))
            let reached = graph.reachable(from: routine.start.compactMap(\.target.nodeIndex))
            unreachable = reached.contains(false) ? UnreachableRegions(graph, reached: reached, components: components).regions : []
        }
    }

    private static func checkNode(
        _ node: NodeRecord, of routine: Routine, edges: UnsafeBufferPointer<Edge>, form: SourceFormat,
        into diagnostics: inout DiagnosticList
    ) {
        let text = routine.text
        var id: String { text.string(node.id) }
        if node.title.count == 0 {
            let what = node.kind == .habit ? "the title of habit '\(id)'" : "the prompt of question '\(id)'"
            diagnostics.append(.emptyText(what, at: node.titleSpan))
        }
        if node.days == .everyDay, let span = node.daysSpan {
            diagnostics.append(.everyDay(id, at: span))
        }
        // `4 per week on mon wed`: no week has the days the quota asks for.
        if node.perWeek > 0, let days = node.days, Int(node.perWeek) > days.rawValue.nonzeroBitCount, let span = node.daysSpan {
            diagnostics.append(.quotaBeyondDays(id, quota: Int(node.perWeek), days: days, at: span))
        }
        guard node.kind == .question else { return }
        let options = node.options
        switch options.count {
        case 0: if form == .rt { diagnostics.append(.questionWithoutOptions(id, at: node.idSpan)) }
        case 1: diagnostics.append(.singleOption(id, at: node.idSpan))
        default:
            let first = edges[routine.optionRecords[options.lowerBound].next.range]
            let same = options.dropFirst().allSatisfy { k in
                let next = edges[routine.optionRecords[k].next.range]
                return next.count == first.count && zip(next, first).allSatisfy { $0.target == $1.target }
            }
            if same { diagnostics.append(.optionsAllSame(id, at: node.idSpan)) }
        }
        if let misleading = misleadingNumber(options, of: routine) {
            diagnostics.append(.numberedOptions(id, typed: misleading.typed, picks: misleading.picks, at: misleading.span))
        }
        // Up to a few dozen options: compared pairwise, by their bytes, which costs less than a
        // string of each for a table (a quarter of checking 100,000 questions of ten options);
        // more: a table, so that 100,000 options stay linear.
        var seen: [String: Span]? = options.count > 32 ? [:] : nil
        for k in options {
            let option = routine.optionRecords[k]
            if option.text.count == 0 {
                diagnostics.append(.emptyText("an answer of question '\(id)'", at: option.textSpan))
                continue
            }
            let first: Span?
            if seen != nil {
                first = seen?[text.string(option.text)]
            } else {
                first = routine.optionRecords[options.lowerBound..<k].first { text.equal($0.text, option.text) }?.textSpan
            }
            let next = edges[option.next.range]
            if next.count == 1, next[next.startIndex].target == .end, Diagnostic.readsLikeDayOff(text.string(option.text)) {
                diagnostics.append(.dayOffOption(text.string(option.text), question: id, at: option.textSpan))
            }
            if let first {
                diagnostics.append(.duplicateOption(text.string(option.text), question: id, at: option.textSpan, first: first))
            } else {
                seen?[text.string(option.text)] = option.textSpan
            }
        }
    }

    /// The smallest number `n` that some option is written as while another option sits at
    /// position `n`: typing it picks by position, not the option that reads `n`.
    private static func misleadingNumber(_ options: Range<Int>, of routine: Routine) -> (typed: Int, picks: String, span: Span)? {
        var found: (typed: Int, picks: String, span: Span)?
        for (position, k) in options.enumerated() {
            let option = routine.optionRecords[k]
            // Read from the bytes: nearly every option is words, and a string per option of
            // every question was a measurable share of checking a large routine.
            let number: Int? = routine.text.withBytes(option.text) { bytes in
                guard bytes.count > 0, bytes.count <= 6, bytes[0] != UInt8(ascii: "0") else { return nil }
                var n = 0
                for b in bytes {
                    guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                    n = n * 10 + Int(b - UInt8(ascii: "0"))
                }
                return n
            }
            guard let n = number, n <= options.count, n != position + 1, found.map({ n < $0.typed }) ?? true else { continue }
            let picked = routine.optionRecords[options.lowerBound + n - 1]
            found = (n, routine.text.string(picked.text), option.textSpan)
        }
        return found
    }

    private static func cycleDiagnostic(_ cycle: [Int], _ routine: Routine) -> Diagnostic {
        var edges: [(from: String, to: String, span: Span)] = []
        for k in 0..<(cycle.count - 1) {
            let span = edgeSpan(from: cycle[k], to: cycle[k + 1], in: routine) ?? routine.records[cycle[k]].idSpan
            edges.append((routine.id(of: cycle[k]), routine.id(of: cycle[k + 1]), span))
        }
        var names = cycle.map { routine.id(of: $0) }
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

    private static func edgeSpan(from node: Int, to target: Int, in routine: Routine) -> Span? {
        let record = routine.records[node]
        for k in record.options {
            let next = routine.edges[routine.optionRecords[k].next.range]
            if let edge = next.first(where: { $0.target == .node(target) }) { return edge.span }
        }
        return routine.edges[record.next.range].first(where: { $0.target == .node(target) })?.span
    }

    /// Warns once per unreachable region, at the node through which it would be entered,
    /// except a lone node that is the suggested fix for a misspelt arrow (once the typo is
    /// fixed it is reached, and the error already says so) or a redeclared ID's copy (already
    /// an error).
    private static func checkReachability(
        _ routine: Routine, _ regions: [UnreachableRegions.Region], suggested: Set<String>, form: SourceFormat,
        into diagnostics: inout DiagnosticList
    ) {
        var firstOfID: [String: Int]?
        for region in regions {
            let i = region.entry
            let id = routine.id(of: i)
            if region.after?.isEmpty ?? false {
                if firstOfID == nil { firstOfID = routine.indexByID() }
                guard firstOfID?[id] == i, !suggested.contains(id) else { continue }
            }
            let others = region.after.map { after in
                after.map { Label(routine.records[$0].idSpan, routine.id(of: $0)) }
            }
            diagnostics.append(.unreachable(id, at: routine.records[i].idSpan, after: others, form: form))
        }
    }
}

/// Checks arrows: unknown targets (with a suggestion), repeated targets, targets after `end`.
private struct EdgeChecker: Sendable {
    let routine: Routine
    var diagnostics = DiagnosticList()
    private var suggestions: [Int: String?] = [:]
    /// Every node's ID, built when the first unknown target needs a suggestion.
    private var ids: [String]?
    /// The answers of an earlier routine, until the first suggestion asks whether its IDs are these.
    private var memo: SuggestionMemo?
    /// The memo's answers, once they are known to apply to this routine's IDs.
    private var known: [String: String?] = [:]
    /// The answer for each unknown name of this routine, for the next version's memo (only
    /// these, so that names typed and gone over a long session are not kept).
    private(set) var answers: [String: String?] = [:]

    init(routine: Routine, memo: SuggestionMemo) {
        self.routine = routine
        self.memo = memo
    }

    mutating func check(_ edges: UnsafeBufferPointer<Edge>, isStart: Bool) {
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
            let first =
                firstSpan != nil
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
        if let done = suggestions[missing] { return done }
        var found: String?
        if suggestions.count < Validator.detailLimit {
            let name = routine.missingNames[missing]
            if let memo {
                known = memo.answers(for: routine)
                self.memo = nil
            }
            if let answer = known[name] {
                found = answer
            } else {
                if ids == nil { ids = routine.records.indices.map { routine.id(of: $0) } }
                found = closestMatch(to: name, among: ids!)
            }
            answers[name] = .some(found)
        }
        suggestions[missing] = .some(found)
        return found
    }
}
