/// The node-to-node edges of a routine in compressed form (offsets into one array), for the
/// linear graph algorithms: cycles, reachability, the run's agenda, path counting.
public struct RoutineGraph: Sendable {
    /// Successors of node `i` are `targets[offsets[i]..<offsets[i + 1]]`, in the order written:
    /// the options' targets, then the node's own arrow. `end` and missing targets are left out.
    public let offsets: [Int32]
    public let targets: [Int32]
    /// Whether every edge leads to a node declared later: then no path comes back, and the
    /// graph has no cycle without a search for one. Generated routines are written this way,
    /// and most written by hand nearly so.
    public let pointsForward: Bool

    public init(_ routine: Routine) {
        var forward = true
        var targets: [Int32] = []
        offsets = routine.withBuffers { buffers in
            [Int32](unsafeUninitializedCapacity: buffers.records.count + 1) { offsets, offsetCount in
                // Each edge gives at most one target, so the edges' count bounds the array.
                targets = [Int32](unsafeUninitializedCapacity: buffers.edges.count) { targets, count in
                    func add(_ range: EdgeRange, from node: Int) {
                        for edge in buffers.edges(range) {
                            guard case .node(let t) = edge.target else { continue }
                            precondition(count < targets.count, "edge ranges overlap")
                            if t <= node { forward = false }
                            targets[count] = Int32(t)
                            count += 1
                        }
                    }
                    offsets[0] = 0
                    for i in 0..<buffers.records.count {
                        let record = buffers.records[i]
                        for k in record.options { add(buffers.options[k].next, from: i) }
                        add(record.next, from: i)
                        offsets[i + 1] = Int32(count)
                    }
                }
                offsetCount = buffers.records.count + 1
            }
        }
        self.targets = targets
        pointsForward = forward
    }

    public var nodeCount: Int { offsets.count - 1 }

    public func successors(of node: Int) -> ArraySlice<Int32> {
        targets[Int(offsets[node])..<Int(offsets[node + 1])]
    }

    /// Nodes reachable from `roots` (roots included), by an iterative search.
    public func reachable(from roots: [Int]) -> [Bool] {
        var seen = [Bool](repeating: false, count: nodeCount)
        var stack: [Int32] = []
        for root in roots where !seen[root] {
            seen[root] = true
            stack.append(Int32(root))
        }
        while let node = stack.popLast() {
            for t in successors(of: Int(node)) where !seen[Int(t)] {
                seen[Int(t)] = true
                stack.append(t)
            }
        }
        return seen
    }
}
