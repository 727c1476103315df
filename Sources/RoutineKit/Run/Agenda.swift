/// The run's agenda: which node runs next, by the rule in grammar.md ("the first agenda node
/// that no other agenda node can still lead to").
///
/// A node is *live* while it can still run: it is on the agenda or reachable from the agenda
/// through nodes that have not run. For each live node the agenda keeps the number of arrows
/// into it from live nodes. A node on the agenda whose count is zero is ready, and the ready
/// nodes wait in a heap ordered by agenda position. The graph is acyclic (the validator
/// guarantees it), so these counts are reference counts that reach zero exactly when a node
/// can no longer be reached: each node is made live, run or dropped once, each arrow is
/// counted and uncounted once, and a whole run is linear in the size of the graph.
public struct Agenda: Sendable {
    private let graph: RoutineGraph
    private var live: [Bool]
    private var liveArrowsIn: [Int32]
    private var onAgenda: [Bool]
    private var ran: [Bool]
    /// Agenda position; smaller is nearer the front. Front insertion counts down.
    private var position: [Int]
    private var front = 0
    private var ready = MinHeap()
    /// The reserved `end`, which is never waiting for anything: index `graph.nodeCount`.
    private var endIndex: Int { graph.nodeCount }

    /// An agenda holding the start list, in order.
    public init(graph: RoutineGraph, start: [Target]) {
        self.graph = graph
        let n = graph.nodeCount
        live = Array(repeating: false, count: n)
        liveArrowsIn = Array(repeating: 0, count: n)
        onAgenda = Array(repeating: false, count: n + 1)
        ran = Array(repeating: false, count: n)
        position = Array(repeating: 0, count: n + 1)
        markLive(from: start.compactMap(\.nodeIndex))
        enqueue(start)
    }

    /// The node to run next, or `.end` when `end` is reached, or nil when the agenda is empty.
    public mutating func next() -> Target? {
        guard let (_, node) = ready.pop() else { return nil }
        if node == endIndex { return .end }
        return .node(node)
    }

    /// Records that `node` ran and puts `targets` at the front of the agenda, in order.
    /// A target already on the agenda keeps its place; a node that already ran is not added.
    public mutating func complete(_ node: Int, targets: [Target]) {
        onAgenda[node] = false
        ran[node] = true
        live[node] = false
        enqueue(targets)
        release(node)
    }

    /// The agenda in order, front first. Linear in the routine's size; for path exploration.
    public func pending() -> [Target] {
        var entries: [(Int, Target)] = []
        for index in 0..<graph.nodeCount where onAgenda[index] { entries.append((position[index], .node(index))) }
        if onAgenda[endIndex] { entries.append((position[endIndex], .end)) }
        return entries.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Whether `node` has already run.
    public func hasRun(_ node: Int) -> Bool { ran[node] }

    private static func index(of target: Target, end: Int) -> Int? {
        switch target {
        case .node(let index): index
        case .end: end
        case .missing: nil
        }
    }

    /// Puts the targets not yet on the agenda (and not yet run) in front of it, in order.
    private mutating func enqueue(_ targets: [Target]) {
        var fresh: [Int] = []
        for target in targets {
            guard let index = Self.index(of: target, end: endIndex), !onAgenda[index] else { continue }
            if index < graph.nodeCount, ran[index] { continue }
            onAgenda[index] = true
            fresh.append(index)
        }
        front -= fresh.count
        for (k, index) in fresh.enumerated() {
            position[index] = front + k
            if index == endIndex || liveArrowsIn[index] == 0 { ready.push((front + k, index)) }
        }
    }

    /// Makes every node reachable from `roots` live and counts the arrows between them.
    private mutating func markLive(from roots: [Int]) {
        var stack: [Int32] = []
        for root in roots where !live[root] {
            live[root] = true
            stack.append(Int32(root))
        }
        while let v = stack.popLast() {
            for w in graph.successors(of: Int(v)) {
                liveArrowsIn[Int(w)] += 1
                if !live[Int(w)] {
                    live[Int(w)] = true
                    stack.append(w)
                }
            }
        }
    }

    /// `node` is no longer live: uncount its arrows, making targets on the agenda ready and
    /// dropping nodes nothing live leads to any more.
    private mutating func release(_ node: Int) {
        var stack: [Int32] = [Int32(node)]
        while let v = stack.popLast() {
            for w in graph.successors(of: Int(v)) {
                let t = Int(w)
                liveArrowsIn[t] -= 1
                guard liveArrowsIn[t] == 0, live[t] else { continue }
                if onAgenda[t] {
                    ready.push((position[t], t))
                } else {
                    live[t] = false
                    stack.append(w)
                }
            }
        }
    }
}

/// A binary min-heap of (agenda position, node).
struct MinHeap: Sendable {
    private var items: [(Int, Int)] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ item: (Int, Int)) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Int, Int)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var smallest = i
                if l < items.count, items[l].0 < items[smallest].0 { smallest = l }
                if r < items.count, items[r].0 < items[smallest].0 { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
        }
        return top
    }
}
