/// Writes a routine as a Graphviz `digraph`. Every ID and label is a quoted, escaped string,
/// so no routine, whatever its strings, produces DOT that Graphviz rejects. Output depends
/// only on the routine, so it diffs well.
public enum DOTWriter {
    public enum Direction: String, Sendable, CaseIterable { case TB, LR }

    public static func write(_ view: GraphView, direction: Direction = .TB) -> String {
        let routine = view.routine
        let firstIndex = routine.indexByID()
        var out = "digraph \(quote(routine.name)) {\n"
        out += "  graph [rankdir=\(direction.rawValue), label=\(quote(routine.name)), labelloc=t, fontname=\"Helvetica\", fontsize=16];\n"
        out += "  node [fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
        out += "  \" start\" [shape=circle, style=filled, fillcolor=black, label=\"\", width=0.2];\n"
        for (i, node) in routine.nodes.enumerated() where !view.isRedeclaration(i, firstIndex: firstIndex) {
            var label = node.title
            if let details = GraphView.details(node) { label += "\n" + details }
            var attributes = node.isHabit
                ? ["shape=box", "style=\"rounded\"", "label=\(quote(label))"]
                : ["shape=hexagon", "label=\(quote(label))"]
            if view.showProblems, !view.reachable[i] {
                attributes = attributes.map { $0 == "style=\"rounded\"" ? "style=\"rounded,dashed\"" : $0 }
                if node.isQuestion { attributes.append("style=dashed") }
                attributes += ["color=gray60", "fontcolor=gray60", "tooltip=\"unreachable\""]
            }
            out += "  \(quote(node.id)) [\(attributes.joined(separator: ", "))];\n"
        }
        if view.usesEnd {
            out += "  \" end\" [shape=doublecircle, label=\"end\", width=0.3, fontsize=10];\n"
        }
        for (k, name) in routine.missingNames.enumerated() where view.showProblems {
            out += "  \(quote(missingID(k, name))) [shape=box, style=dashed, color=red, fontcolor=red, label=\(quote(name + "\n(missing)"))];\n"
        }
        for arrow in view.arrows {
            let from = arrow.from.map { quote(routine.nodes[$0].id) } ?? "\" start\""
            let to: String
            switch arrow.target {
            case .node(let t): to = quote(routine.nodes[t].id)
            case .end: to = "\" end\""
            case .missing(let k):
                guard view.showProblems else { continue }
                to = quote(missingID(k, routine.missingNames[k]))
            }
            var attributes: [String] = []
            if let label = arrow.label { attributes.append("label=\(quote(label))") }
            if arrow.kind == .gather { attributes.append("style=dashed") }
            if view.showProblems {
                if case .missing = arrow.target { attributes += ["color=red", "style=dashed"] }
                if arrow.onCycle { attributes += ["color=red", "penwidth=2"] }
            }
            out += "  \(from) -> \(to)" + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]") + ";\n"
        }
        return out + "}\n"
    }

    /// A name no routine ID can take (IDs have no spaces).
    private static func missingID(_ k: Int, _ name: String) -> String { " missing \(name)" }

    /// A DOT double-quoted string. Inside one, `\"` is a quote and, in labels, a backslash
    /// starts an escape (`\n`, `\l`, `\N`...), so a literal backslash is doubled. Line breaks
    /// become `\n`; other control characters, which SVG cannot carry, become U+FFFD.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r", "\u{2028}", "\u{2029}": out += "\\n"
            case "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || (0xFFFE...0xFFFF).contains(scalar.value)
                {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
