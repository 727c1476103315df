import RoutineKit

extension LanguageServer {
    /// What a node is, where it is reached from, and how many ways run it.
    func hover(_ snapshot: Snapshot, at offset: Int) -> JSON {
        guard let occurrence = snapshot.index.occurrence(at: offset) else { return .null }
        let range = snapshot.positions.range(occurrence.span)
        guard let node = occurrence.node else {
            let text = occurrence.name == "end" ? "**end**: finishes the whole routine at once" : "no node is named `\(occurrence.name)`"
            return ["contents": ["kind": "markdown", "value": .string(text)], "range": range]
        }
        let routine = snapshot.routine
        let info = routine.nodes[node]
        var lines = ["**\(info.kind.rawValue)** `\(info.id)`: \(Self.markdown(info.title))"]
        var details: [String] = []
        if let seconds = info.duration { details.append("for \(DurationText.human(seconds))") }
        if let target = info.target { details.append("target \(target.boundText)" + (target.unit.map { " \($0)" } ?? "")) }
        if let days = info.days { details.append("on " + days.words.joined(separator: " ")) }
        if let perWeek = info.perWeek { details.append("\(perWeek) per week") }
        if info.isQuestion { details.append("\(info.options.count) option\(info.options.count == 1 ? "" : "s")") }
        if !details.isEmpty { lines.append(details.joined(separator: " · ")) }
        if let note = info.note { lines.append("note: " + Self.markdown(note)) }
        let from = snapshot.index.predecessors[node].map { "`\(routine.id(of: $0))`" }
        let starts = routine.start.contains { $0.target == .node(node) }
        var reached = from
        if starts { reached.insert("the start", at: 0) }
        lines.append(reached.isEmpty ? "reached from: nothing" : "reached from: " + reached.joined(separator: ", "))
        lines.append(Self.waysText(snapshot, node: node))
        return ["contents": ["kind": "markdown", "value": .string(lines.joined(separator: "\n\n"))], "range": range]
    }

    static func waysText(_ snapshot: Snapshot, node: Int) -> String {
        switch snapshot.ways {
        case .invalid: return "ways: not counted until the routine has no errors"
        case .tooComplex: return "ways: too many to count while editing ('routine paths' counts them)"
        case .counted(let summary, let byNode):
            guard let through = byNode[node] else { return "runs on none of the \(summary.count) ways through the routine" }
            return "runs on \(through.count) of \(summary.count) way\(summary.count == BigCount(1) ? "" : "s") through the routine"
                + " · shortest \(DurationText.human(through.shortestSeconds)) · longest \(DurationText.human(through.longestSeconds))"
        }
    }

    /// Markdown's special characters escaped, so that a title shows as written.
    static func markdown(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\`*_{}[]()#+-.!<>|~".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Above each question: the ways through it, shortest and longest.
    func codeLenses(_ snapshot: Snapshot) -> JSON {
        let routine = snapshot.routine
        let questions = (0..<routine.nodeCount).filter { routine.isQuestion($0) }
        guard !questions.isEmpty else { return [] }
        let ways = snapshot.ways
        if case .invalid = ways { return [] }
        return .array(
            questions.map { q in
                let title: String
                switch ways {
                case .counted(_, let byNode):
                    if let through = byNode[q] {
                        let count = through.count == BigCount(1) ? "1 way" : "\(through.count) ways"
                        title =
                            "\(count) · shortest \(DurationText.human(through.shortestSeconds)) · longest \(DurationText.human(through.longestSeconds))"
                    } else {
                        title = "no way reaches this question"
                    }
                default: title = "too many ways to count while editing"
                }
                let line = snapshot.positions.position(routine.idSpan(of: q).lowerBound).line
                let range: JSON = ["start": ["line": JSON(line), "character": 0], "end": ["line": JSON(line), "character": 0]]
                return ["range": range, "command": ["title": .string(title), "command": "routine.showGraph", "arguments": [.string(snapshot.uri)]]]
            })
    }

    /// The buffer drawn as DOT or Mermaid (its problems marked when it has errors), with the
    /// source range of each node, so a client can go from the drawing to the text.
    func graph(_ snapshot: Snapshot, mermaid: Bool) -> JSON {
        let loaded = snapshot.loaded
        var view = GraphView(loaded.routine, showProblems: loaded.hasErrors)
        if loaded.hasErrors { view.markInvalidAttributes(loaded.diagnostics, in: loaded.file) }
        let text = mermaid ? MermaidWriter.write(view) : DOTWriter.write(view)
        var nodes: [String: JSON] = [:]
        let index = snapshot.index
        for i in 0..<loaded.routine.nodeCount where nodes[loaded.routine.id(of: i)] == nil {
            nodes[loaded.routine.id(of: i)] = snapshot.positions.range(index.declarations[i])
        }
        return ["format": .string(mermaid ? "mermaid" : "dot"), "text": .string(text), "nodes": .object(nodes), "hasErrors": .bool(loaded.hasErrors)]
    }
}
