/// Strongly connected components by Tarjan's algorithm, with an explicit stack so that a
/// chain of a million nodes needs no deep recursion.
public struct StronglyConnectedComponents: Sendable {
    /// The component of each node.
    public let component: [Int32]
    /// Whether each component holds a cycle (more than one node, or a node leading to itself).
    public let isCyclic: [Bool]

    public init(_ graph: RoutineGraph) {
        let n = graph.nodeCount
        if graph.pointsForward {
            // No path comes back, so every node is a component of its own and none is cyclic.
            component = Array(0..<Int32(n))
            isCyclic = Array(repeating: false, count: n)
            return
        }
        var index = [Int32](repeating: -1, count: n)
        var lowlink = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var isCyclic: [Bool] = []
        var stack: [Int32] = []
        var frames: [(node: Int32, next: Int32)] = []
        var counter: Int32 = 0

        for root in 0..<n where index[root] < 0 {
            frames.append((Int32(root), graph.offsets[root]))
            index[root] = counter
            lowlink[root] = counter
            counter += 1
            stack.append(Int32(root))
            onStack[root] = true
            while let frame = frames.last {
                let v = Int(frame.node)
                if frame.next < graph.offsets[v + 1] {
                    frames[frames.count - 1].next += 1
                    let w = Int(graph.targets[Int(frame.next)])
                    if index[w] < 0 {
                        index[w] = counter
                        lowlink[w] = counter
                        counter += 1
                        stack.append(Int32(w))
                        onStack[w] = true
                        frames.append((Int32(w), graph.offsets[w]))
                    } else if onStack[w] {
                        lowlink[v] = min(lowlink[v], index[w])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last {
                    let p = Int(parent.node)
                    lowlink[p] = min(lowlink[p], lowlink[v])
                }
                guard lowlink[v] == index[v] else { continue }
                let id = Int32(isCyclic.count)
                var size = 0
                while let w = stack.popLast() {
                    onStack[Int(w)] = false
                    component[Int(w)] = id
                    size += 1
                    if Int(w) == v { break }
                }
                isCyclic.append(size > 1 || graph.successors(of: v).contains(Int32(v)))
            }
        }
        self.component = component
        self.isCyclic = isCyclic
    }

    /// Whether the edge `from -> to` lies on a cycle.
    public func isCyclicEdge(from: Int, to: Int) -> Bool {
        component[from] == component[to] && isCyclic[Int(component[from])]
    }

    /// One cycle through each cyclic component, starting at its first declared node:
    /// a breadth-first search inside the component back to that node, so each is shortest.
    public func representativeCycles(_ graph: RoutineGraph) -> [[Int]] {
        var firstNode = [Int](repeating: -1, count: isCyclic.count)
        for v in 0..<component.count where isCyclic[Int(component[v])] && firstNode[Int(component[v])] < 0 {
            firstNode[Int(component[v])] = v
        }
        var parent = [Int32](repeating: -1, count: component.count)
        var cycles: [[Int]] = []
        for start in firstNode.filter({ $0 >= 0 }).sorted() {
            let c = component[start]
            var queue = [Int32(start)]
            var head = 0
            var closing = -1
            search: while head < queue.count {
                let v = Int(queue[head])
                head += 1
                for w in graph.successors(of: v) where component[Int(w)] == c {
                    if Int(w) == start {
                        closing = v
                        break search
                    }
                    if parent[Int(w)] < 0 {
                        parent[Int(w)] = Int32(v)
                        queue.append(w)
                    }
                }
            }
            var path = [start]
            var v = closing
            while v != start, v >= 0 {
                path.append(v)
                v = Int(parent[v])
            }
            cycles.append([start] + path.dropFirst().reversed() + [start])
        }
        return cycles
    }
}
