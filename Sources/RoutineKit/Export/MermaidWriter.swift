/// Writes a routine as a Mermaid `flowchart` with the same content as the DOT drawing.
///
/// Mermaid IDs are restricted and some words (`end` above all) break a flowchart, so every
/// node gets an ID of its own: `n_` and the routine ID with `_` and `-` spelled out, which
/// keeps IDs readable, stable across edits, and distinct. Labels are quoted, with Mermaid's
/// entity codes for the characters it would otherwise interpret.
public enum MermaidWriter {
    public static func write(_ view: GraphView, direction: DOTWriter.Direction = .TB) -> String {
        let routine = view.routine
        var title = ""
        JSONValue.quote(routine.name, into: &title)
        var out = "---\ntitle: \(title)\n---\nflowchart \(direction.rawValue)\n"
        out += "  s_start(( ))\n"
        var unreachable: [String] = []
        // Under `graph --stats`: habits filled by completion rate, nodes no run reached faded.
        var faded: [String] = []
        var filled = ""
        for (i, node) in routine.nodes.enumerated() where !view.isRedeclaration(i) {
            var text = label(node.title)
            if let details = GraphView.details(node) { text += "<br>" + label(details) }
            for attribute in view.invalidAttributes[i] ?? [] { text += "<br>" + label(attribute + " (invalid)") }
            let id = nodeID(node.id)
            out += node.isHabit ? "  \(id)(\"\(text)\")\n" : "  \(id){{\"\(text)\"}}\n"
            if view.showProblems, !view.reachable[i] { unreachable.append(id) }
            if let history = view.history {
                if !history.reached[i] {
                    faded.append(id)
                } else if node.isHabit, let rate = history.rates[i] {
                    filled.append("  style \(id) fill:\(GraphHistory.color(rate: rate))\n")
                }
            }
        }
        if view.usesEnd { out += "  s_end(((\"end\")))\n" }
        var missing: [String] = []
        for (k, name) in routine.missingNames.enumerated() where view.showProblems {
            out += "  m_\(k)[\"\(label(name))<br>(missing)\"]\n"
            missing.append("m_\(k)")
        }
        var linkIndex = 0
        var redLinks: [Int] = []
        for arrow in view.arrows {
            let from = arrow.from.map { nodeID(routine.id(of: $0)) } ?? "s_start"
            let to: String
            switch arrow.target {
            case .node(let t): to = nodeID(routine.id(of: t))
            case .end: to = "s_end"
            case .missing(let k):
                guard view.showProblems else { continue }
                to = "m_\(k)"
                redLinks.append(linkIndex)
            }
            let shaft = arrow.kind == .gather ? "-.->" : "-->"
            var text = arrow.label
            // One answer leading to several nodes was chosen that often, not that often each.
            if let history = view.history, let question = arrow.from, let option = arrow.option, (arrow.order ?? 1) == 1 {
                text = (arrow.text ?? "") + " · \(history.chosen[question].map { $0[option] } ?? 0)×" + (arrow.order.map { " (\($0))" } ?? "")
            }
            out += "  \(from) \(shaft)" + (text.map { "|\"\(label($0))\"|" } ?? "") + " \(to)\n"
            if view.showProblems, arrow.onCycle { redLinks.append(linkIndex) }
            linkIndex += 1
        }
        out += "  classDef start fill:#000,stroke:#000\n  class s_start start\n"
        if !missing.isEmpty {
            out += "  classDef missing stroke:#d00,color:#d00,stroke-dasharray:4 3\n  class \(missing.joined(separator: ",")) missing\n"
        }
        if !unreachable.isEmpty {
            out += "  classDef unreachable stroke:#999,color:#999,stroke-dasharray:4 3\n  class \(unreachable.joined(separator: ",")) unreachable\n"
        }
        if let history = view.history { out += legend(history) + filled }
        if !faded.isEmpty {
            out += "  classDef faded stroke:#b3b3b3,color:#8c8c8c\n  class \(faded.joined(separator: ",")) faded\n"
        }
        if !redLinks.isEmpty {
            out += "  linkStyle \(Set(redLinks).sorted().map(String.init).joined(separator: ",")) stroke:#d00,stroke-width:2px\n"
        }
        return out
    }

    /// The scale of the fill colours, the window, and how arrows are labelled: a row of
    /// nodes of their own, apart from the routine.
    static func legend(_ history: GraphHistory) -> String {
        let caption =
            "completion rate, \(history.first) to \(history.until), \(history.runs) run\(history.runs == 1 ? "" : "s"); \(GraphHistory.countNote); faded: never reached"
        var out = "  subgraph s_legend[\"\(label(caption))\"]\n    direction LR\n"
        for (k, band) in GraphHistory.bands.enumerated() { out += "    s_band\(k)[\"\(label(band))\"]\n" }
        out += "  end\n"
        for k in GraphHistory.bands.indices { out += "  style s_band\(k) fill:\(GraphHistory.color(rate: Double(k) / 5))\n" }
        return out
    }

    /// `n_` plus the ID, with `_` written `__` and `-` written `_h`, so distinct IDs stay distinct.
    static func nodeID(_ id: String) -> String {
        var out = ByteWriter()
        out.write("n_")
        out.write(id) { scalar in
            switch scalar {
            case "_": "__"
            case "-": "_h"
            default: nil
            }
        }
        return out.text
    }

    /// Text for inside a quoted Mermaid label: quotes, markup and entity starts become entity
    /// codes, line breaks `<br>`, control characters U+FFFD.
    static func label(_ text: String) -> String {
        var out = ByteWriter()
        out.write(text) { scalar in
            switch scalar {
            case "\"": "#quot;"
            case "#": "#35;"
            case "<": "#lt;"
            case ">": "#gt;"
            case "&": "#amp;"
            case "`": "#96;"
            case "\n", "\r", "\u{2028}", "\u{2029}": "<br>"
            case "\t": " "
            default: scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : nil
            }
        }
        return out.text
    }
}
