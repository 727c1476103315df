/// The node-to-node edges of a routine in compressed form (offsets into one array), for the
/// linear graph algorithms: cycles, reachability, the run's agenda, path counting.
public struct RoutineGraph: Sendable {
    /// Successors of node `i` are `targets[offsets[i]..<offsets[i + 1]]`, in the order written:
    /// the options' targets, then the node's own arrow. `end` and missing targets are left out.
    public let offsets: [Int32]
    public let targets: [Int32]

    public init(_ routine: Routine) {
        var offsets = [Int32]()
        offsets.reserveCapacity(routine.records.count + 1)
        var targets = [Int32]()
        targets.reserveCapacity(routine.edges.count)
        offsets.append(0)
        routine.edges.withUnsafeBufferPointer { edges in
            func add(_ range: EdgeRange) {
                for edge in edges[range.range] { if case .node(let t) = edge.target { targets.append(Int32(t)) } }
            }
            for record in routine.records {
                for k in record.options { add(routine.optionRecords[k].next) }
                add(record.next)
                offsets.append(Int32(targets.count))
            }
        }
        self.offsets = offsets
        self.targets = targets
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
