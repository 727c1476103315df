/// A routine: a named graph of habits and questions, with an ordered start list.
///
/// Nodes live in one array and refer to each other by index, so a routine of a million
/// nodes is a few flat arrays rather than a web of references.
public struct Routine: Sendable {
    public var name: String
    public var nameSpan: Span
    public var nodes: [RoutineNode]
    /// The start list as written; empty when the routine has no `start` declaration.
    public var explicitStart: [Edge]
    /// The `start` keyword, when there is a declaration.
    public var startSpan: Span?
    /// Names that arrows refer to but no node declares, indexed by ``Target/missing(_:)``.
    public var missingNames: [String]

    public init(
        name: String, nameSpan: Span = Span(at: 0), nodes: [RoutineNode] = [], explicitStart: [Edge] = [],
        startSpan: Span? = nil, missingNames: [String] = []
    ) {
        self.name = name
        self.nameSpan = nameSpan
        self.nodes = nodes
        self.explicitStart = explicitStart
        self.startSpan = startSpan
        self.missingNames = missingNames
    }

    /// The nodes a run starts with: the start list, or else the first node declared.
    public var start: [Edge] {
        if startSpan != nil { return explicitStart }
        guard let first = nodes.first else { return [] }
        return [Edge(.node(0), span: first.idSpan)]
    }

    /// The name an arrow's target shows in messages and output.
    public func name(of target: Target) -> String {
        switch target {
        case .node(let index): nodes[index].id
        case .end: "end"
        case .missing(let index): missingNames[index]
        }
    }

    /// A map from node ID to index; the first of duplicate IDs wins, as in the graph.
    public func indexByID() -> [String: Int] {
        var map = [String: Int](minimumCapacity: nodes.count)
        for (i, node) in nodes.enumerated() where map[node.id] == nil { map[node.id] = i }
        return map
    }
}

/// Where an arrow leads.
public enum Target: Hashable, Sendable {
    /// A declared node, by index into ``Routine/nodes``.
    case node(Int)
    /// The reserved target that finishes the routine.
    case end
    /// A name no node declares, by index into ``Routine/missingNames``.
    case missing(Int)

    public var nodeIndex: Int? {
        if case .node(let index) = self { return index }
        return nil
    }
}

/// One target of an arrow, with the place it is written.
public struct Edge: Hashable, Sendable {
    public var target: Target
    public var span: Span

    public init(_ target: Target, span: Span) {
        self.target = target
        self.span = span
    }
}
