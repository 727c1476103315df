/// The run's agenda rule for exploring paths, at a cost that depends on the agenda rather than
/// on the routine: a node on the agenda can only be waiting for nodes that come before it in
/// topological order, so whether it is ready is decided by a search among the nodes between
/// the agenda's first and last topological positions. Nodes that have run never need
/// tracking: none of them can be reached from the agenda again (a node that runs later would
/// have been live, and kept them waiting).
///
/// Why not the run's ``Agenda``: that one marks every node the agenda can reach, once per run,
/// which path exploration would pay once per segment. Why it is kept beside ``SegmentAgenda``:
/// for the short agendas of most routines, a search from the agenda alone, with no per-segment
/// setup, is the cheaper. PathOracleTests checks that both choose as the run engine does.
final class WindowedAgenda {
    private let graph: RoutineGraph
    /// Each node's position in a topological order of the (acyclic) routine.
    let order: [Int32]
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []
    /// Which nodes the tracked agenda holds: `listed[n] == listing`.
    private var listed: [UInt32]
    private var listing: UInt32 = 0
    private var endListed = false
    /// Work done so far (agenda entries scanned, arrows followed), for a budget.
    var work = 0

    init(graph: RoutineGraph) {
        self.graph = graph
        order = Self.topologicalOrder(graph)
        stamp = Array(repeating: 0, count: graph.nodeCount)
        listed = Array(repeating: 0, count: graph.nodeCount)
    }

    /// The index in `agenda` of the entry to run next: `end` at once, otherwise the first node
    /// that no other agenda node can reach. Nil when the agenda is empty.
    func next(in agenda: [Target]) -> Int? {
        var limit: Int32 = -1
        var followed = 0
        defer { work += 2 * agenda.count + followed }
        for entry in agenda {
            switch entry {
            case .end: break
            case .node(let n): limit = max(limit, order[n])
            case .missing: break
            }
        }
        generation &+= 1
        // Work on local arrays: accessing a class's arrays inside the loop would pay for a
        // dynamic exclusivity check on every element.
        var stamp = self.stamp
        var stack = self.stack
        self.stamp = []
        self.stack = []
        defer {
            self.stamp = stamp
            self.stack = stack
        }
        if generation == 0 {
            stamp = Array(repeating: 0, count: stamp.count)
            generation = 1
        }
        let generation = self.generation
        // Mark every node one or more arrows away from the agenda, within the window.
        stack.removeAll(keepingCapacity: true)
        for case .node(let n) in agenda { stack.append(Int32(n)) }
        // Raw buffers: a slice of the graph per node would retain and release its storage.
        order.withUnsafeBufferPointer { order in
            graph.offsets.withUnsafeBufferPointer { offsets in
                graph.targets.withUnsafeBufferPointer { targets in
                    stamp.withUnsafeMutableBufferPointer { stamp in
                        while let v = stack.popLast() {
                            followed += Int(offsets[Int(v) + 1] - offsets[Int(v)])
                            for e in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                                let w = Int(targets[e])
                                guard order[w] <= limit, stamp[w] != generation else { continue }
                                stamp[w] = generation
                                stack.append(Int32(w))
                            }
                        }
                    }
                }
            }
        }
        for (k, entry) in agenda.enumerated() {
            switch entry {
            case .end: return k
            case .node(let n) where stamp[n] != generation: return k
            default: continue
            }
        }
        return nil
    }

    /// Puts the targets of `edges`, then of `more`, at the front of `agenda`, in order;
    /// entries already there keep their place. Membership is read from stamps that
    /// ``track(_:)`` set, so a push costs its own targets, not the agenda's length.
    func push(_ edges: ArraySlice<Edge>, then more: ArraySlice<Edge> = [], onto agenda: inout [Target]) {
        let total = edges.count + more.count
        guard total > 0 else { return }
        work += total
        var fresh: [Target] = []
        fresh.reserveCapacity(total)
        for k in 0..<total {
            let target = k < edges.count ? edges[edges.startIndex + k].target : more[more.startIndex + k - edges.count].target
            switch target {
            case .missing: continue
            case .end:
                guard !endListed else { continue }
                endListed = true
            case .node(let n):
                guard listed[n] != listing else { continue }
                listed[n] = listing
            }
            fresh.append(target)
        }
        agenda.insert(contentsOf: fresh, at: 0)
    }

    /// Starts tracking which targets `agenda` holds, for ``push(_:then:onto:)``; one agenda at a time.
    func track(_ agenda: [Target]) {
        listing &+= 1
        if listing == 0 {
            listed = Array(repeating: 0, count: listed.count)
            listing = 1
        }
        endListed = false
        // A segment also allocates, and its agenda is hashed as a memo key: a fixed cost on top.
        work += agenda.count + 16
        for target in agenda {
            switch target {
            case .node(let n): listed[n] = listing
            case .end: endListed = true
            case .missing: break
            }
        }
    }

    /// Notes that `target` left the agenda being tracked.
    func untrack(_ target: Target) {
        switch target {
        case .node(let n): listed[n] = 0
        case .end: endListed = false
        case .missing: break
        }
    }

    /// Kahn's algorithm; the validator has already refused cycles.
    static func topologicalOrder(_ graph: RoutineGraph) -> [Int32] {
        let n = graph.nodeCount
        var indegree = [Int32](repeating: 0, count: n)
        for t in graph.targets { indegree[Int(t)] += 1 }
        var queue: [Int32] = (0..<n).filter { indegree[$0] == 0 }.map(Int32.init)
        var order = [Int32](repeating: 0, count: n)
        var head = 0
        var position: Int32 = 0
        while head < queue.count {
            let v = Int(queue[head])
            head += 1
            order[v] = position
            position += 1
            for w in graph.successors(of: v) {
                indegree[Int(w)] -= 1
                if indegree[Int(w)] == 0 { queue.append(w) }
            }
        }
        return order
    }
}
