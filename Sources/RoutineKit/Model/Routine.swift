/// A routine: a named graph of habits and questions, with an ordered start list.
///
/// Nodes are stored flat: plain records in one array, every arrow's targets in one array,
/// and texts as byte ranges (of the `.rt` source, or of the routine's own bytes). A routine
/// of a million nodes is a few allocations. ``nodes`` presents each node as a ``RoutineNode``.
public struct Routine: Sendable {
    public var name: String
    public var nameSpan: Span
    var records: [NodeRecord] = []
    var optionRecords: [OptionRecord] = []
    /// The targets of every arrow; records refer to runs of it.
    var edges: [Edge] = []
    var text = TextStorage()
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
        self.explicitStart = explicitStart
        self.startSpan = startSpan
        self.missingNames = missingNames
        records.reserveCapacity(nodes.count)
        for node in nodes { append(node) }
    }

    /// The nodes, in declaration order, each built from its record when read.
    public var nodes: NodeList { NodeList(routine: self) }

    /// The number of nodes, without building any.
    public var nodeCount: Int { records.count }

    /// Stores `node` after the others; its texts go to the routine's own bytes.
    mutating func append(_ node: RoutineNode) {
        var record = NodeRecord(
            id: text.add(node.id), title: text.add(node.title), firstOption: UInt32(optionRecords.count),
            idSpan: node.idSpan, titleSpan: node.titleSpan, kind: node.kind)
        if let note = node.note { record.note = text.add(note) }
        if let unit = node.target?.unit { record.unit = text.add(unit) }
        record.amount = node.target?.amount
        record.atMost = node.target?.atMost ?? false
        record.duration = node.duration
        record.days = node.days
        record.perWeek = UInt8(node.perWeek ?? 0)
        record.arrowSpan = node.arrowSpan
        record.daysSpan = node.daysSpan
        record.noteSpan = node.noteSpan
        for option in node.options {
            optionRecords.append(
                OptionRecord(
                    text: text.add(option.text), next: appendEdges(option.next), textSpan: option.textSpan,
                    arrowSpan: option.arrowSpan))
        }
        record.optionCount = UInt32(node.options.count)
        record.next = appendEdges(node.next)
        records.append(record)
    }

    mutating func appendEdges(_ list: [Edge]) -> EdgeRange {
        let start = edges.count
        edges.append(contentsOf: list)
        return EdgeRange(start: UInt32(start), count: UInt32(list.count))
    }

    /// The nodes a run starts with: the start list, or else the first node declared.
    public var start: [Edge] {
        if startSpan != nil { return explicitStart }
        guard let first = records.first else { return [] }
        return [Edge(.node(0), span: first.idSpan)]
    }

    /// The ID of node `index`.
    public func id(of index: Int) -> String { text.string(records[index].id) }

    /// The name an arrow's target shows in messages and output.
    public func name(of target: Target) -> String {
        switch target {
        case .node(let index): id(of: index)
        case .end: "end"
        case .missing(let index): missingNames[index]
        }
    }

    /// A map from node ID to index; the first of duplicate IDs wins, as in the graph.
    public func indexByID() -> [String: Int] {
        var map = [String: Int](minimumCapacity: records.count)
        for i in records.indices {
            let id = id(of: i)
            if map[id] == nil { map[id] = i }
        }
        return map
    }

    /// How many options question `index` has (0 for a habit).
    public func optionCount(of index: Int) -> Int { Int(records[index].optionCount) }

    /// The planned duration of node `index`, in seconds.
    public func duration(of index: Int) -> Int? { records[index].duration }

    public func isQuestion(_ index: Int) -> Bool { records[index].kind == .question }

    // Single fields of one node, read from its record: a run asks for a few per step, and
    // ``nodes`` would build the whole node, options and all, each time.

    /// Where node `index`'s ID is written.
    public func idSpan(of index: Int) -> Span { records[index].idSpan }

    /// The title (or prompt) of node `index`.
    public func title(of index: Int) -> String { text.string(records[index].title) }

    /// The goal of habit `index`.
    public func target(of index: Int) -> TargetValue? {
        records[index].amount.map {
            TargetValue(amount: $0, unit: text.optionalString(records[index].unit), atMost: records[index].atMost)
        }
    }

    /// The days habit `index` is scheduled on; nil for every day.
    public func days(of index: Int) -> Weekdays? { records[index].days }

    /// How many times a week habit `index` is due; nil when it has no quota.
    public func perWeek(of index: Int) -> Int? { records[index].perWeek == 0 ? nil : Int(records[index].perWeek) }

    /// The targets of node `index`'s own arrow, in order.
    public func targets(of index: Int) -> [Target] { edges[records[index].next.range].map(\.target) }

    /// The answer text of option `option` of question `index`.
    public func answer(_ option: Int, of index: Int) -> String {
        text.string(optionRecords[records[index].options.lowerBound + option].text)
    }

    /// The targets of option `option` of question `index`, in order.
    public func targets(ofAnswer option: Int, of index: Int) -> [Target] {
        edges[optionRecords[records[index].options.lowerBound + option].next.range].map(\.target)
    }
}

/// The nodes of a routine as ``RoutineNode`` values, built on access from the flat records.
public struct NodeList: RandomAccessCollection, Sendable {
    let routine: Routine

    public var startIndex: Int { 0 }
    public var endIndex: Int { routine.records.count }

    public subscript(index: Int) -> RoutineNode {
        let record = routine.records[index]
        let text = routine.text
        var node = RoutineNode(
            kind: record.kind, id: text.string(record.id), title: text.string(record.title),
            note: text.optionalString(record.note), duration: record.duration,
            target: record.amount.map { TargetValue(amount: $0, unit: text.optionalString(record.unit), atMost: record.atMost) },
            days: record.days, next: Array(routine.edges[record.next.range]), idSpan: record.idSpan,
            titleSpan: record.titleSpan, arrowSpan: record.arrowSpan, daysSpan: record.daysSpan)
        node.noteSpan = record.noteSpan
        node.perWeek = record.perWeek == 0 ? nil : Int(record.perWeek)
        node.options = routine.optionRecords[record.options].map { option in
            QuestionOption(
                text: text.string(option.text), next: Array(routine.edges[option.next.range]),
                textSpan: option.textSpan, arrowSpan: option.arrowSpan)
        }
        return node
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
///
/// The target is stored as one 32-bit number (a node's index, or a negative code for `end`
/// and missing names), which makes an edge 12 bytes rather than 24: a large routine holds
/// two or three edges per node.
public struct Edge: Hashable, Sendable {
    private var code: Int32
    public var span: Span

    public init(_ target: Target, span: Span) {
        code = Self.code(of: target)
        self.span = span
    }

    public var target: Target {
        get { code >= 0 ? .node(Int(code)) : code == -1 ? .end : .missing(Int(-2 - code)) }
        set { code = Self.code(of: newValue) }
    }

    private static func code(of target: Target) -> Int32 {
        switch target {
        case .node(let index): Int32(index)
        case .end: -1
        case .missing(let index): Int32(-2 - index)
        }
    }
}
