/// Assembles a ``Routine`` from a reader (the `.rt` parser or the YAML loader): declares
/// nodes, records references by name, and resolves them all at the end, so that an arrow
/// may name a node declared further down.
struct RoutineBuilder {
    var routine = Routine(name: "")
    private var symbols = SymbolTable()
    /// For each symbol, the index of the node declaring it, or -1.
    private var nodeOfSymbol: [Int32] = []
    var diagnostics = DiagnosticList()

    /// Room for the nodes of a source of `sourceSize` bytes at `bytesPerNode`, so that a large
    /// routine is not copied as its array grows. Untouched room costs address space, not memory.
    init(sourceSize: Int = 0, bytesPerNode: Int = 48) {
        let nodes = min(sourceSize / bytesPerNode, 1 << 20)
        routine.records.reserveCapacity(nodes)
        routine.optionRecords.reserveCapacity(nodes)
        routine.edges.reserveCapacity(nodes * 3)
        symbols = SymbolTable(capacity: nodes)
        nodeOfSymbol.reserveCapacity(nodes)
    }

    /// A builder whose texts may be ranges of `source`.
    init(source: [UInt8], bytesPerNode: Int = 48) {
        self.init(sourceSize: source.count, bytesPerNode: bytesPerNode)
        routine.text.source = source
    }

    /// Adds `node`, whose options and edges the reader has already added; a second node with
    /// an ID already declared is kept (its arrows are still checked) but names resolve to the first.
    mutating func declare(_ node: NodeRecord) -> Int {
        routine.text.withBytes(node.id) { noteDeclaration($0, span: node.idSpan) }
        routine.records.append(node)
        return routine.records.count - 1
    }

    /// Adds a node whose ID is `id`, titled by its ID until the reader sets a title, and
    /// returns its index. Options and arrows are added to it by the reader as it reads them.
    mutating func declare(_ kind: RoutineNode.Kind, id: TextRef, idSpan: Span) -> Int {
        routine.text.withBytes(id) { noteDeclaration($0, span: idSpan) }
        routine.records.append(
            NodeRecord(
                id: id, title: id, firstOption: UInt32(routine.optionRecords.count), idSpan: idSpan, titleSpan: idSpan,
                kind: kind))
        return routine.records.count - 1
    }

    private mutating func noteDeclaration(_ id: UnsafeBufferPointer<UInt8>, span: Span) {
        let symbol = Int(symbols.intern(id))
        growSymbols(to: symbol)
        let index = routine.records.count
        if nodeOfSymbol[symbol] >= 0 {
            let first = routine.records[Int(nodeOfSymbol[symbol])].idSpan
            diagnostics.append(.duplicateNode(String(decoding: id, as: UTF8.self), at: span, first: first))
        } else {
            nodeOfSymbol[symbol] = Int32(index)
        }
    }

    /// A placeholder target for `bytes`, resolved by ``finish()``.
    mutating func reference(_ bytes: UnsafeBufferPointer<UInt8>) -> Target {
        let symbol = Int(symbols.intern(bytes))
        growSymbols(to: symbol)
        return .missing(symbol)
    }

    mutating func reference(_ name: String) -> Target {
        if name == "end" { return .end }
        var name = name
        return name.withUTF8 { reference($0) }
    }

    mutating func setName(_ name: String, span: Span) {
        routine.name = name
        routine.nameSpan = span
    }

    mutating func setStart(_ edges: [Edge], span: Span) {
        routine.explicitStart = edges
        routine.startSpan = span
    }

    /// Resolves every reference and returns the routine.
    mutating func finish() -> Routine {
        var missingIndex: [Int: Int] = [:]
        for k in routine.explicitStart.indices {
            routine.explicitStart[k].target = resolve(routine.explicitStart[k].target, &missingIndex)
        }
        for k in routine.edges.indices {
            guard case .missing = routine.edges[k].target else { continue }
            routine.edges[k].target = resolve(routine.edges[k].target, &missingIndex)
        }
        return routine
    }

    private mutating func resolve(_ target: Target, _ missingIndex: inout [Int: Int]) -> Target {
        guard case .missing(let symbol) = target else { return target }
        let node = nodeOfSymbol[symbol]
        if node >= 0 { return .node(Int(node)) }
        if let known = missingIndex[symbol] { return .missing(known) }
        let index = routine.missingNames.count
        routine.missingNames.append(symbols.name(Int32(symbol)))
        missingIndex[symbol] = index
        return .missing(index)
    }

    private mutating func growSymbols(to symbol: Int) {
        while nodeOfSymbol.count <= symbol { nodeOfSymbol.append(-1) }
    }
}
