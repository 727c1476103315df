extension DOTWriter {
    /// Writes every arrow in the order of ``GraphView/forEachArrow(_:)``, straight from the
    /// routine's records: a label is written from the answer's bytes, not built as a string.
    /// An arrow `far` marks (by its place in that order) goes instead to a note by its tail that
    /// names the targets of all its far arrows; of its far gathers, all labelled "then", one
    /// arrow is drawn.
    static func writeArrows(
        _ view: GraphView, _ buffers: RoutineBuffers, xlabels: Bool, far: [Bool], gathers: GatherTails,
        into out: inout ByteWriter, spill: (inout ByteWriter) -> Void
    ) {
        let key: StaticString = xlabels ? " [xlabel=\"" : " [label=\""
        var notes = FarNotes(far: far, nodes: buffers.records.count)
        forEachList(view, buffers, gathers: gathers) { edges, from, label, option, isGather in
            spill(&out)
            writeArrows(
                edges, from: from, label: label, option: option, isGather: isGather, key: key, notes: &notes, view, buffers,
                into: &out)
        }
        for (tail, targets) in zip(notes.tails, notes.targets) {
            spill(&out)
            writeFarNote(tail, targets, view, buffers, into: &out)
        }
    }

    /// The far arrows met so far, by tail (`nil` for the start), in the order first met.
    /// Looked up by the tail's place and a table of pairs, not by hashing: a large routine
    /// has tens of thousands of far arrows, and `Set` and `Dictionary` were a fifth of `graph`.
    struct FarNotes {
        let far: [Bool]
        /// Records, then the end, then the missing names: a target's number among the pairs.
        let nodes: Int
        var drawn = 0
        var tails: [Int?] = []
        var targets: [[Target]] = []
        /// For each tail (the start first, then each record), its place in `tails`, or -1.
        var index: [Int32]
        /// For each tail, whether its first far gather has been drawn.
        var gathered: [Bool]
        var noted: PairSet

        init(far: [Bool], nodes: Int) {
            self.far = far
            self.nodes = nodes
            let tails = far.isEmpty ? 0 : nodes + 1
            index = [Int32](repeating: -1, count: tails)
            gathered = [Bool](repeating: false, count: tails)
            noted = PairSet(expected: far.isEmpty ? 0 : far.count(where: { $0 }))
        }

        /// Counts one drawn arrow; for a far one, notes its target and tells whether its
        /// arrow is still to be drawn (the first far gather of a tail, or any other far arrow).
        mutating func next(from tail: Int?, to target: Target, isGather: Bool) -> (isFar: Bool, draw: Bool) {
            defer { drawn += 1 }
            guard drawn < far.count, far[drawn] else { return (false, true) }
            let key = tail.map { $0 + 1 } ?? 0
            let head: Int
            switch target {
            case .node(let t): head = t
            case .end: head = nodes
            case .missing(let m): head = nodes + 1 + m
            }
            let isNew = noted.insert(UInt64(key) << 32 | UInt64(head))
            if index[key] >= 0 {
                if isNew { targets[Int(index[key])].append(target) }
            } else {
                index[key] = Int32(tails.count)
                tails.append(tail)
                targets.append([target])
            }
            guard isGather else { return (true, true) }
            defer { gathered[key] = true }
            return (true, !gathered[key])
        }
    }

    /// A set of 64-bit numbers, open-addressed: the pairs of a tail and a target.
    struct PairSet {
        private var slots: [UInt64]
        private var count = 0
        private static let empty = UInt64.max

        init(expected: Int) {
            var capacity = 16
            while capacity < expected * 2 { capacity *= 2 }
            slots = [UInt64](repeating: Self.empty, count: capacity)
        }

        /// Adds `key` (never `UInt64.max`); whether it was not there yet.
        mutating func insert(_ key: UInt64) -> Bool {
            if (count + 1) * 2 > slots.count { grow() }
            let mask = slots.count - 1
            var k = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while slots[k] != Self.empty {
                if slots[k] == key { return false }
                k = (k + 1) & mask
            }
            slots[k] = key
            count += 1
            return true
        }

        private mutating func grow() {
            let old = slots
            slots = [UInt64](repeating: Self.empty, count: old.count * 2)
            count = 0
            for key in old where key != Self.empty { _ = insert(key) }
        }
    }

    /// The nodes each question's gather is drawn from (``GatherEnds/Walk/tails(of:)``), found
    /// once for the two passes over the arrows.
    struct GatherTails {
        /// The tails of record `i`'s gather are `tails[first[i]..<first[i + 1]]`.
        private var first: [Int32]
        private var tails: [Int32] = []

        init(_ routine: Routine) {
            first = [0]
            first.reserveCapacity(routine.records.count + 1)
            var walk = GatherEnds.Walk(routine)
            for i in routine.records.indices {
                if routine.records[i].kind == .question, routine.records[i].next.count > 0 {
                    for tail in walk.tails(of: i) { tails.append(Int32(tail)) }
                }
                first.append(Int32(tails.count))
            }
        }

        func of(_ question: Int) -> ArraySlice<Int32> { tails[Int(first[question])..<Int(first[question + 1])] }
    }

    /// Every list of arrows, in the order they are written: `body(edges, from, label, option,
    /// isGather)`, `from` nil for the start.
    static func forEachList(
        _ view: GraphView, _ buffers: RoutineBuffers, gathers: GatherTails,
        _ body: (UnsafeBufferPointer<Edge>, Int?, TextRef?, Int?, Bool) -> Void
    ) {
        view.routine.start.withUnsafeBufferPointer { start in body(start, nil, nil, nil, false) }
        for i in buffers.records.indices {
            let record = buffers.records[i]
            for k in record.options {
                body(buffers.edges(buffers.options[k].next), i, buffers.options[k].text, k - record.options.lowerBound, false)
            }
            guard record.kind == .question else {
                body(buffers.edges(record.next), i, nil, nil, false)
                continue
            }
            // A gather is drawn from where the branches end, which is where a run goes on to it.
            for tail in gathers.of(i) { body(buffers.edges(record.next), Int(tail), nil, nil, true) }
        }
    }

    /// Whether an arrow is drawn at all: one to a missing node only with the problems shown.
    @inline(__always) static func isDrawn(_ edge: Edge, _ view: GraphView) -> Bool {
        if case .missing = edge.target { return view.showProblems }
        return true
    }

    /// Which drawn arrows, in the order they are written, go far: against the flow (the arrows
    /// a depth-first walk from the start finds closing a loop, which `dot` turns round) or over
    /// more than ``farRankSpan`` ranks of the longest-path ranking of the rest. `dot` fills
    /// every rank such an arrow crosses with a node of its own, and its crossing minimisation,
    /// placement and spline routing then work on all of them: a gather drawn from the last
    /// node of a routine back to a node near its top crosses every rank between. Empty for a
    /// routine under ``largeRoutine`` nodes, which draws every arrow whole.
    static func farArrows(_ view: GraphView, _ buffers: RoutineBuffers, gathers: GatherTails) -> [Bool] {
        let nodes = buffers.records.count
        guard nodes >= largeRoutine else { return [] }
        // Graph nodes: the records, then the start, the end, and each missing name.
        let start = nodes
        let end = nodes + 1
        let count = nodes + 2 + view.routine.missingNames.count
        var tails: [Int32] = []
        var heads: [Int32] = []
        forEachList(view, buffers, gathers: gathers) { edges, from, _, _, _ in
            for edge in edges where isDrawn(edge, view) {
                tails.append(Int32(from ?? start))
                switch edge.target {
                case .node(let t): heads.append(Int32(t))
                case .end: heads.append(Int32(end))
                case .missing(let m): heads.append(Int32(nodes + 2 + m))
                }
            }
        }
        // The arrows by tail, in the order written.
        var first = [Int](repeating: 0, count: count + 1)
        for tail in tails { first[Int(tail) + 1] += 1 }
        for v in 0..<count { first[v + 1] += first[v] }
        var byTail = [Int32](repeating: 0, count: tails.count)
        var filled = first
        for (a, tail) in tails.enumerated() {
            byTail[filled[Int(tail)]] = Int32(a)
            filled[Int(tail)] += 1
        }
        // Iterative depth-first walk, from the start and then from every node not yet reached.
        var far = [Bool](repeating: false, count: tails.count)
        var state = [UInt8](repeating: 0, count: count)  // 0 unseen, 1 on the path, 2 done
        var next = first
        var path: [Int] = []
        for root in [start] + Array(0..<count) where state[root] == 0 {
            state[root] = 1
            path.append(root)
            while let v = path.last {
                guard next[v] < first[v + 1] else {
                    state[v] = 2
                    path.removeLast()
                    continue
                }
                let a = Int(byTail[next[v]])
                next[v] += 1
                let w = Int(heads[a])
                if state[w] == 1 {
                    far[a] = true
                } else if state[w] == 0 {
                    state[w] = 1
                    path.append(w)
                }
            }
        }
        // Longest-path ranks over the arrows left, which form no loop, in topological order.
        var waiting = [Int32](repeating: 0, count: count)
        for (a, head) in heads.enumerated() where !far[a] { waiting[Int(head)] += 1 }
        var rank = [Int32](repeating: 0, count: count)
        var ready = (0..<count).filter { waiting[$0] == 0 }
        while let v = ready.popLast() {
            for slot in first[v]..<first[v + 1] {
                let a = Int(byTail[slot])
                guard !far[a] else { continue }
                let w = Int(heads[a])
                rank[w] = max(rank[w], rank[v] + 1)
                waiting[w] -= 1
                if waiting[w] == 0 { ready.append(w) }
            }
        }
        for a in far.indices where !far[a] && rank[Int(heads[a])] - rank[Int(tails[a])] > farRankSpan { far[a] = true }
        return far
    }

    /// The name of the note by `tail` that its far arrows end at.
    private static func writeFarNoteID(_ tail: Int?, _ buffers: RoutineBuffers, into out: inout ByteWriter) {
        out.write("\" to ")
        if let tail { escape(buffers.bytes(buffers.records[tail].id), into: &out) } else { out.write(" start") }
        out.byte(UInt8(ascii: "\""))
    }

    /// The note by `tail`: a line for each target of its far arrows, `↪` and the start of the
    /// target's title.
    private static func writeFarNote(
        _ tail: Int?, _ targets: [Target], _ view: GraphView, _ buffers: RoutineBuffers, into out: inout ByteWriter
    ) {
        out.write("  ")
        writeFarNoteID(tail, buffers, into: &out)
        out.write(" [shape=plaintext, fontsize=9, fontcolor=gray35, label=\"")
        for (k, target) in targets.enumerated() {
            out.write(k == 0 ? "\u{21AA} " : "\\l\u{21AA} ")
            let name: String
            switch target {
            case .node(let t):
                let title = buffers.bytes(buffers.records[t].title)
                // No more characters than bytes: a short title is written from its bytes.
                guard title.count > farNoteLength else {
                    escape(title, into: &out)
                    continue
                }
                name = String(decoding: title, as: UTF8.self)
            case .end: name = "end"
            case .missing(let m): name = view.routine.missingNames[m]
            }
            // A long title would widen its rank; the start of it is enough to find the node.
            escape(name.count > farNoteLength ? String(name.prefix(farNoteLength - 1)) + "\u{2026}" : name, into: &out)
        }
        out.write(targets.count > 1 ? "\\l\"];\n" : "\"];\n")
    }

    /// The arrows of one list. A gather is labelled "then"; when a list has several targets,
    /// each label ends with the target's place in it. `key` opens the label: `label` or `xlabel`.
    private static func writeArrows(
        _ edges: UnsafeBufferPointer<Edge>, from: Int?, label: TextRef?, option: Int?, isGather: Bool, key: StaticString,
        notes: inout FarNotes, _ view: GraphView,
        _ buffers: RoutineBuffers, into out: inout ByteWriter
    ) {
        for (k, edge) in edges.enumerated() {
            guard isDrawn(edge, view) else { continue }
            var isMissing = false
            if case .missing = edge.target { isMissing = true }
            let (isFar, draw) = notes.next(from: from, to: edge.target, isGather: isGather)
            guard draw else { continue }
            out.write("  ")
            if let from { quote(buffers.bytes(buffers.records[from].id), into: &out) } else { out.write("\" start\"") }
            out.write(" -> ")
            if isFar {
                writeFarNoteID(from, buffers, into: &out)
            } else {
                switch edge.target {
                case .node(let t): quote(buffers.bytes(buffers.records[t].id), into: &out)
                case .end: out.write("\" end\"")
                case .missing(let m): quote(missingID(view.routine.missingNames[m]), into: &out)
                }
            }
            var onCycle = false
            if view.showProblems, let from, case .node(let to) = edge.target { onCycle = view.isCyclicEdge(from: from, to: to) }
            let order = edges.count > 1 ? k + 1 : nil
            var separator: StaticString = " ["
            var opened = false
            if label != nil || isGather || order != nil {
                out.write(key)
                if let label { escape(buffers.bytes(label), into: &out) }
                if isGather { out.write("then") }
                // One answer leading to several nodes was chosen that often, not that often each.
                if let history = view.history, let from, let option, k == 0 {
                    out.write(" · ")
                    out.write(history.chosen[from].map { $0[option] } ?? 0)
                    out.write("×")
                }
                if let order {
                    if label != nil || isGather { out.byte(UInt8(ascii: " ")) }
                    out.byte(UInt8(ascii: "("))
                    out.write(order)
                    out.byte(UInt8(ascii: ")"))
                }
                out.byte(UInt8(ascii: "\""))
                separator = ", "
                opened = true
            }
            func attribute(_ text: StaticString) {
                out.write(separator)
                out.write(text)
                separator = ", "
                opened = true
            }
            if isGather { attribute("style=dashed") }
            if view.showProblems {
                if isMissing {
                    attribute("color=red")
                    attribute("style=dashed")
                }
                if onCycle {
                    attribute("color=red")
                    attribute("penwidth=2")
                }
            }
            if opened { out.byte(UInt8(ascii: "]")) }
            out.write(";\n")
        }
    }
}

extension DOTWriter {
    /// A node's look under `graph --stats`: a habit filled by its completion rate; a node no
    /// run reached drawn faded.
    static func writeHistory(_ history: GraphHistory, of node: Int, _ isHabit: Bool, into out: inout ByteWriter) {
        guard history.reached[node] else {
            out.write(", color=gray70, fontcolor=gray55, tooltip=\"never reached in this window\"")
            return
        }
        guard isHabit, let rate = history.rates[node] else { return }
        out.write(", fillcolor=\"")
        out.write(string: GraphHistory.color(rate: rate))
        out.write("\", tooltip=\"done on ")
        out.write(Int((rate * 100).rounded()))
        out.write("% of its due days\"")
    }

    /// The scale of the fill colours, the window, and how arrows are labelled.
    static func writeLegend(_ history: GraphHistory, into out: inout ByteWriter) {
        out.write("  \" legend\" [shape=plaintext, fontsize=9, label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">")
        out.write("<tr><td colspan=\"5\">")
        out.write(
            string:
                "completion rate, \(history.first) to \(history.until), \(history.runs) run\(history.runs == 1 ? "" : "s"); \(GraphHistory.countNote); faded: never reached"
        )
        out.write("</td></tr><tr>")
        for (k, band) in GraphHistory.bands.enumerated() {
            out.write("<td bgcolor=\"")
            out.write(string: GraphHistory.color(rate: Double(k) / 5))
            out.write("\">")
            out.write(string: band)
            out.write("</td>")
        }
        out.write("</tr></table>>];\n")
    }
}
