extension DOTWriter {
    /// Writes every arrow in the order of ``GraphView/forEachArrow(_:)``, straight from the
    /// routine's records: a label is written from the answer's bytes, not built as a string.
    static func writeArrows(_ view: GraphView, _ buffers: RoutineBuffers, xlabels: Bool, into out: inout ByteWriter) {
        let key: StaticString = xlabels ? " [xlabel=\"" : " [label=\""
        view.routine.start.withUnsafeBufferPointer { start in
            writeArrows(start, from: nil, label: nil, option: nil, isGather: false, key: key, view, buffers, into: &out)
        }
        for i in buffers.records.indices {
            let record = buffers.records[i]
            for k in record.options {
                let option = buffers.options[k]
                writeArrows(
                    buffers.edges(option.next), from: i, label: option.text, option: k - record.options.lowerBound, isGather: false,
                    key: key, view, buffers, into: &out)
            }
            guard record.kind == .question else {
                writeArrows(buffers.edges(record.next), from: i, label: nil, option: nil, isGather: false, key: key, view, buffers, into: &out)
                continue
            }
            // A gather is drawn from where the branches end, which is where a run goes on to it.
            for tail in GatherEnds.tails(of: i, in: view.routine) {
                writeArrows(buffers.edges(record.next), from: tail, label: nil, option: nil, isGather: true, key: key, view, buffers, into: &out)
            }
        }
    }

    /// The arrows of one list. A gather is labelled "then"; when a list has several targets,
    /// each label ends with the target's place in it. `key` opens the label: `label` or `xlabel`.
    private static func writeArrows(
        _ edges: UnsafeBufferPointer<Edge>, from: Int?, label: TextRef?, option: Int?, isGather: Bool, key: StaticString,
        _ view: GraphView,
        _ buffers: RoutineBuffers, into out: inout ByteWriter
    ) {
        for (k, edge) in edges.enumerated() {
            var isMissing = false
            if case .missing = edge.target { isMissing = true }
            if isMissing, !view.showProblems { continue }
            out.write("  ")
            if let from { quote(buffers.bytes(buffers.records[from].id), into: &out) } else { out.write("\" start\"") }
            out.write(" -> ")
            switch edge.target {
            case .node(let t): quote(buffers.bytes(buffers.records[t].id), into: &out)
            case .end: out.write("\" end\"")
            case .missing(let m): quote(missingID(view.routine.missingNames[m]), into: &out)
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
