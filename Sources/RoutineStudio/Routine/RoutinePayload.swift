import RoutineKit

/// The routine as the page receives it, the JSON of `GET /api/routine` (docs/studio.md
/// describes each member): the text, its problems, and the drawing.
enum RoutinePayload {
    /// The drawing: cards and arrows with their layout, kept whole so a file that stops parsing
    /// can show the last one.
    struct Graph: Sendable {
        var nodes: JSONValue
        var edges: JSONValue
        var markers: JSONValue
        var width: Double
        var height: Double
        var layoutError: String?
    }

    static func isSyntax(_ code: DiagnosticCode) -> Bool {
        code.rawValue.hasPrefix("E0") || code.rawValue.hasPrefix("E1") || code.rawValue.hasPrefix("E3")
    }

    static func graph(_ loaded: LoadedRoutine, layout: Result<StudioLayout, Diagnostic>) -> Graph {
        let routine = loaded.routine
        let laid: StudioLayout
        var layoutError: String?
        switch layout {
        case .success(let found): laid = found
        case .failure(let diagnostic):
            // No boxes and no lines, but the arrows all the same: the outline says where each card leads.
            var arrows = StudioLayout()
            arrows.arrows = StudioLayout.dot(for: routine, reachable: nil, text: false).arrows
            laid = arrows
            layoutError = diagnostic.message
        }
        let byID = routine.indexByID()
        let startIndices = routine.start.compactMap(\.target.nodeIndex)
        let reachable = RoutineGraph(routine).reachable(from: startIndices)
        let starts = Set(startIndices)
        var nodes: [JSONValue] = []
        for (index, node) in routine.nodes.enumerated() where byID[node.id] == index {
            var members: [(String, JSONValue)] = [
                ("id", .string(node.id)), ("kind", .string(node.kind.rawValue)), ("title", .string(node.title)),
            ]
            if node.isHabit {
                members += [
                    ("duration", node.duration.map { .int($0) } ?? .null),
                    ("durationText", node.duration.map { .string(DurationText.format($0)) } ?? .null),
                    ("target", node.target.map { .number($0.amount) } ?? .null),
                    ("unit", node.target?.unit.map { .string($0) } ?? .null),
                    ("atMost", .bool(node.target?.atMost ?? false)),
                    ("days", node.days.map { .array($0.words.map { .string($0) }) } ?? .null),
                    ("perWeek", node.perWeek.map { .int($0) } ?? .null),
                    ("details", GraphView.details(node).map { .string($0) } ?? .null),
                ]
            }
            members.append(("note", node.note.map { .string($0) } ?? .null))
            let ports = laid.ports[node.id] ?? []
            members.append(
                (
                    "options",
                    .array(
                        node.options.enumerated().map { k, option in
                            var port: [(String, JSONValue)] = [("index", .int(k)), ("text", .string(option.text))]
                            if k < ports.count { port += [("x", .number(round1(ports[k].x))), ("width", .number(round1(ports[k].width)))] }
                            return .object(port)
                        })
                ))
            members += [("start", .bool(starts.contains(index))), ("unreachable", .bool(!reachable[index]))]
            if let box = laid.boxes["n\(index)"] { members += box.json }
            nodes.append(.object(members))
        }
        let edges: [JSONValue] = laid.arrows.map { arrow in
            .object([
                ("from", arrow.from.map { .string($0) } ?? .null), ("to", .string(arrow.to)),
                ("option", arrow.option.map { .int($0) } ?? .null), ("kind", .string(arrow.kind.rawValue)),
                ("points", .array(arrow.points.map { .array([.number(round1($0.0)), .number(round1($0.1))]) })),
                ("tip", arrow.tip.map { .array([.number(round1($0.0)), .number(round1($0.1))]) } ?? .null),
                ("via", arrow.via.map { .string($0) } ?? .null), ("viaOption", arrow.viaOption.map { .int($0) } ?? .null),
            ])
        }
        var markers: [(String, JSONValue)] = []
        if let start = laid.boxes["start"] { markers.append(("start", .object(start.json))) }
        if let end = laid.boxes["end"] { markers.append(("end", .object(end.json))) }
        markers.append(
            (
                "missing",
                .array(
                    routine.missingNames.enumerated().compactMap { k, name in
                        laid.boxes["m\(k)"].map { .object([("name", .string(name))] + $0.json) }
                    })
            ))
        return Graph(
            nodes: .array(nodes), edges: .array(edges), markers: .object(markers), width: laid.width, height: laid.height,
            layoutError: layoutError)
    }

    static func json(
        version: Int, path: String, format: SourceFormat, loaded: LoadedRoutine, graph: Graph, stale: Bool, readOnly: String?,
        canUndo: Bool, canRedo: Bool, message: String?
    ) -> [UInt8] {
        var table = LineTable(loaded.file)
        let ranges = NodeRanges(loaded.routine, source: loaded.file.bytes)
        let diagnostics = loaded.diagnostics.map { diagnostic in
            var json = diagnostic.json(in: loaded.file, table: &table)
            // The card the problem belongs to, for the page to mark: the node whose lines hold it.
            if case .object(var members) = json, let span = diagnostic.span, let node = ranges.node(at: span.lowerBound) {
                members.append(("node", .string(loaded.routine.id(of: node))))
                json = .object(members)
            }
            return json
        }
        let value = JSONValue.object([
            ("version", .int(version)), ("path", .string(path)), ("format", .string(format.rawValue)),
            ("name", .string(loaded.routine.name)), ("source", .string(String(decoding: loaded.file.bytes, as: UTF8.self))),
            ("readOnly", readOnly.map { .string($0) } ?? .null), ("stale", .bool(stale)),
            ("diagnostics", .array(diagnostics)), ("width", .number(round1(graph.width))), ("height", .number(round1(graph.height))),
            ("nodes", graph.nodes), ("edges", graph.edges), ("markers", graph.markers),
            ("layoutError", graph.layoutError.map { .string($0) } ?? .null),
            ("canUndo", .bool(canUndo)), ("canRedo", .bool(canRedo)), ("message", message.map { .string($0) } ?? .null),
        ])
        var out = ByteWriter()
        value.write(to: &out)
        return out.bytes
    }
}
