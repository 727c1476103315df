/// The parts of a routine that no path from the start reaches, grouped so that one mistake (a
/// misspelt arrow that cuts off half a chain) is reported once, where the region would be
/// entered, and not once per node.
struct UnreachableRegions {
    struct Region: Sendable {
        /// The node through which the region would be entered.
        let entry: Int
        /// The other unreachable nodes reached from the entry, in file order; `nil` when the
        /// count was not worked out because the regions overlap too much to count each.
        let after: [Int]?
    }

    let regions: [Region]

    /// An entry is a node that no other unreachable node points to; a cycle that only its
    /// own nodes point to is entered at its first node in the file. Each entry's region is
    /// counted on its own, so regions that share nodes each give their true count, within a
    /// work budget linear in the graph; past it, a region's count is left out.
    init(_ graph: RoutineGraph, reached: [Bool], components: StronglyConnectedComponents) {
        let n = graph.nodeCount
        let component = components.component
        var entered = [Bool](repeating: false, count: components.isCyclic.count)
        for u in 0..<n where !reached[u] {
            for t in graph.successors(of: u) where component[Int(t)] != component[u] {
                entered[Int(component[Int(t)])] = true
            }
        }
        var stamp = [Int32](repeating: -1, count: n)
        var budget = 8 * (n + graph.targets.count) + 1_000_000
        var regions: [Region] = []
        var stack: [Int32] = []
        for u in 0..<n where !reached[u] {
            let c = Int(component[u])
            guard !entered[c] else { continue }
            // Later nodes of the same cycle are after this entry, not entries of their own.
            entered[c] = true
            let mark = Int32(regions.count)
            stamp[u] = mark
            stack.append(Int32(u))
            var after: [Int] = []
            var complete = true
            while let v = stack.popLast() {
                let next = graph.successors(of: Int(v))
                for t in next where !reached[Int(t)] && stamp[Int(t)] != mark {
                    stamp[Int(t)] = mark
                    after.append(Int(t))
                    stack.append(t)
                }
                budget -= 1 + next.count
                if budget < 0, !stack.isEmpty {
                    complete = false
                    stack.removeAll()
                }
            }
            after.sort()
            regions.append(Region(entry: u, after: complete ? after : nil))
        }
        self.regions = regions
    }
}
