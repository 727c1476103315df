/// Assembles a ``Routine`` from a reader (the `.rt` parser or the YAML loader): declares
/// nodes, records references by name, and resolves them all at the end, so that an arrow
/// may name a node declared further down.
struct RoutineBuilder {
    private(set) var routine = Routine(name: "")
    private var symbols = SymbolTable()
    /// For each symbol, the index of the node declaring it, or -1.
    private var nodeOfSymbol: [Int32] = []
    var diagnostics: [Diagnostic] = []

    /// Room for the nodes of a source of `sourceSize` bytes at `bytesPerNode`, so that a large
    /// routine is not copied as its array grows. Untouched room costs address space, not memory.
    init(sourceSize: Int = 0, bytesPerNode: Int = 48) {
        routine.nodes.reserveCapacity(min(sourceSize / bytesPerNode, 1 << 20))
    }

    /// Adds `node`; a second node with an ID already declared is kept (its arrows are still
    /// checked) but names resolve to the first.
    mutating func declare(_ node: RoutineNode) -> Int {
        let symbol = Int(symbols.intern(node.id))
        growSymbols(to: symbol)
        let index = routine.nodes.count
        if nodeOfSymbol[symbol] >= 0 {
            let first = routine.nodes[Int(nodeOfSymbol[symbol])].idSpan
            diagnostics.append(.duplicateNode(node.id, at: node.idSpan, first: first))
        } else {
            nodeOfSymbol[symbol] = Int32(index)
        }
        routine.nodes.append(node)
        return index
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

    /// Mutates the most recently declared node: readers fill a node in as they read it.
    mutating func updateNode(_ index: Int, _ body: (inout RoutineNode) -> Void) {
        body(&routine.nodes[index])
    }

    /// Resolves every reference and returns the routine.
    mutating func finish() -> Routine {
        var missingIndex: [Int: Int] = [:]
        func resolve(_ edges: inout [Edge]) {
            for k in edges.indices {
                guard case .missing(let symbol) = edges[k].target else { continue }
                let node = nodeOfSymbol[symbol]
                if node >= 0 {
                    edges[k].target = .node(Int(node))
                } else if let known = missingIndex[symbol] {
                    edges[k].target = .missing(known)
                } else {
                    let index = routine.missingNames.count
                    routine.missingNames.append(symbols.name(Int32(symbol)))
                    missingIndex[symbol] = index
                    edges[k].target = .missing(index)
                }
            }
        }
        resolve(&routine.explicitStart)
        for i in routine.nodes.indices {
            resolve(&routine.nodes[i].next)
            for k in routine.nodes[i].options.indices { resolve(&routine.nodes[i].options[k].next) }
        }
        return routine
    }

    private mutating func growSymbols(to symbol: Int) {
        while nodeOfSymbol.count <= symbol { nodeOfSymbol.append(-1) }
    }
}
