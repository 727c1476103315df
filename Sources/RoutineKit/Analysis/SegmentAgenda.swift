/// The run's agenda rule (grammar.md: "the first agenda node that no other agenda node can
/// still lead to") for one segment of path exploration, at a cost that depends on the
/// segment's window, not on the routine, and not on the agenda's length at every step.
///
/// As in the run's ``Agenda``, a node is *live* while it is on the agenda or reachable from it
/// through nodes that have not run, and each live node counts the arrows into it from live
/// nodes: an agenda node whose count is zero is ready, and the ready ones wait in a heap by
/// agenda position. Unlike the run, a segment marks only its window: the nodes no later in
/// topological order than the agenda's last. An arrow that leaves the window waits in a
/// frontier, ordered by its target's position, and is counted when the window widens to it
/// (when a target beyond it is pushed). A node beyond the window cannot lead back into it, so
/// widening never blocks a node already ready. Each node and arrow of the window is marked,
/// counted and released once per segment, however long the agenda is.
///
/// Why not the run's ``Agenda``: that one marks every node the agenda can reach, once per run,
/// which path exploration would pay once per segment; why not ``WindowedAgenda``: its search
/// per step grows with the agenda, so it serves agendas up to `PathExplorer.longAgenda` and
/// this one the longer. PathOracleTests checks that they choose as the run engine does.
final class SegmentAgenda {
    private let graph: RoutineGraph
    /// Each node's position in a topological order of the (acyclic) routine.
    let order: [Int32]
    private var generation: UInt32 = 0
    /// Live in this segment: `liveStamp[n] == generation`; then `arrowsIn[n]` is its count.
    private var liveStamp: [UInt32]
    private var arrowsIn: [Int32]
    /// On the agenda: `agendaStamp[n] == generation`; then `position[n]` is its place.
    private var agendaStamp: [UInt32]
    private var position: [Int]
    /// Every node put on the agenda this segment (some since run), for ``pending()``.
    private var listed: [Int] = []
    private var endPosition: Int?
    private var front = 0
    private var limit: Int32 = -1
    /// Ready entries by agenda position; node -1 is `end`.
    private var ready = MinHeap()
    /// Arrows from live nodes to nodes beyond the window, as (target's order, from, to).
    private var frontier = FrontierHeap()
    /// The heap journals writes for the run's undo; a segment never goes back.
    private var scratch: [AgendaChange] = []
    /// Work done so far (entries listed, nodes marked, arrows counted), for a budget.
    var work = 0

    init(graph: RoutineGraph, order: [Int32]) {
        self.graph = graph
        self.order = order
        let n = graph.nodeCount
        liveStamp = Array(repeating: 0, count: n)
        arrowsIn = Array(repeating: 0, count: n)
        agendaStamp = Array(repeating: 0, count: n)
        position = Array(repeating: 0, count: n)
    }

    /// Starts a segment from `agenda`, in order.
    func start(_ agenda: [Target]) {
        generation &+= 1
        if generation == 0 {
            liveStamp = Array(repeating: 0, count: liveStamp.count)
            agendaStamp = Array(repeating: 0, count: agendaStamp.count)
            generation = 1
        }
        ready = MinHeap()
        frontier = FrontierHeap()
        listed.removeAll(keepingCapacity: true)
        endPosition = nil
        front = 0
        limit = -1
        // A segment also allocates, and its agenda is hashed as a memo key: a fixed cost on top.
        work += agenda.count + 16
        for case .node(let n) in agenda { limit = max(limit, order[n]) }
        for (k, target) in agenda.enumerated() {
            switch target {
            case .node(let n):
                guard agendaStamp[n] != generation else { continue }
                agendaStamp[n] = generation
                position[n] = k
                listed.append(n)
            case .end:
                if endPosition == nil { endPosition = k }
            case .missing:
                continue
            }
        }
        for n in listed where liveStamp[n] != generation { makeLive(Int32(n)) }
        // The answer's targets may lead to agenda nodes: readiness is decided after them.
        for n in listed where arrowsIn[n] == 0 { pushReady(position[n], n) }
        if let endPosition { pushReady(endPosition, -1) }
    }

    /// The entry to run next: `.end`, a node, or nil when the agenda is empty.
    func next() -> Target? {
        guard let (_, node) = ready.pop(journal: &scratch) else { return nil }
        scratch.removeAll(keepingCapacity: true)
        work += 1
        return node < 0 ? .end : .node(node)
    }

    /// Runs `node`, the node ``next()`` returned: it leaves the agenda, and the targets of
    /// `edges` go to its front, in order; a target already there keeps its place.
    func complete(_ node: Int, targets edges: ArraySlice<Edge>, then more: ArraySlice<Edge> = []) {
        agendaStamp[node] = 0
        push(edges, then: more)
        release(node)
    }

    /// Puts the targets of `edges`, then of `more`, at the front of the agenda, in order, and
    /// makes ready those nothing live leads to.
    func push(_ edges: ArraySlice<Edge>, then more: ArraySlice<Edge> = []) {
        for target in place(edges, then: more) {
            switch target {
            case .node(let t): if arrowsIn[t] == 0 { pushReady(position[t], t) }
            case .end: pushReady(endPosition!, -1)
            case .missing: break
            }
        }
    }

    /// Lists the targets not on the agenda yet at its front, widening the window to them and
    /// making them live; returns them. Readiness is left to the caller: a target placed later
    /// in the list may lead to one placed earlier.
    private func place(_ edges: ArraySlice<Edge>, then more: ArraySlice<Edge>) -> [Target] {
        var fresh: [Target] = []
        for edge in [edges, more].joined() {
            switch edge.target {
            case .node(let t):
                guard agendaStamp[t] != generation else { continue }
                agendaStamp[t] = generation
                listed.append(t)
            case .end:
                guard endPosition == nil else { continue }
                endPosition = 0
            case .missing:
                continue
            }
            fresh.append(edge.target)
        }
        work += fresh.count + 1
        front -= fresh.count
        for (k, target) in fresh.enumerated() {
            switch target {
            case .node(let t):
                position[t] = front + k
                if order[t] > limit { widen(to: order[t]) }
                if liveStamp[t] != generation { makeLive(Int32(t)) }
            case .end:
                endPosition = front + k
            case .missing:
                break
            }
        }
        return fresh
    }

    /// The agenda in order, front first: the memo key of the question a segment stops at.
    func pending() -> [Target] {
        var entries: [(Int, Target)] = []
        for n in listed where agendaStamp[n] == generation { entries.append((position[n], .node(n))) }
        if let endPosition { entries.append((endPosition, .end)) }
        work += listed.count
        return entries.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func pushReady(_ position: Int, _ node: Int) {
        ready.push((position, node), journal: &scratch)
        scratch.removeAll(keepingCapacity: true)
    }

    /// Makes `root` live, and every node it leads to within the window; arrows out of the
    /// window wait in the frontier.
    private func makeLive(_ root: Int32) {
        liveStamp[Int(root)] = generation
        arrowsIn[Int(root)] = 0
        var stack = [root]
        while let v = stack.popLast() {
            work += 1
            for w in graph.successors(of: Int(v)) { follow(v, w, into: &stack) }
        }
    }

    /// Counts the arrow `v -> w` from a live node, or leaves it in the frontier.
    @inline(__always) private func follow(_ v: Int32, _ w: Int32, into stack: inout [Int32]) {
        work += 1
        let t = Int(w)
        guard order[t] <= limit else {
            frontier.push((order[t], v, w))
            return
        }
        if liveStamp[t] == generation {
            arrowsIn[t] += 1
        } else {
            liveStamp[t] = generation
            arrowsIn[t] = 1
            stack.append(w)
        }
    }

    /// Widens the window to `newLimit`, counting the arrows of live nodes that reach into it.
    private func widen(to newLimit: Int32) {
        limit = newLimit
        var stack: [Int32] = []
        while let (o, v, w) = frontier.peek(), o <= limit {
            frontier.pop()
            // An arrow from a node that has since run or been dropped counts no more.
            guard liveStamp[Int(v)] == generation else { continue }
            follow(v, w, into: &stack)
            while let u = stack.popLast() {
                work += 1
                for x in graph.successors(of: Int(u)) { follow(u, x, into: &stack) }
            }
        }
    }

    /// `node` ran: it is no longer live. Uncount its arrows, making agenda nodes ready and
    /// dropping nodes nothing live leads to any more.
    private func release(_ node: Int) {
        liveStamp[node] = 0
        var stack: [Int32] = [Int32(node)]
        while let v = stack.popLast() {
            for w in graph.successors(of: Int(v)) {
                work += 1
                let t = Int(w)
                guard order[t] <= limit, liveStamp[t] == generation else { continue }
                arrowsIn[t] -= 1
                guard arrowsIn[t] == 0 else { continue }
                if agendaStamp[t] == generation {
                    pushReady(position[t], t)
                } else {
                    liveStamp[t] = 0
                    stack.append(w)
                }
            }
        }
    }
}

/// A binary min-heap of frontier arrows by their target's topological position.
struct FrontierHeap {
    private var items: [(Int32, Int32, Int32)] = []

    func peek() -> (Int32, Int32, Int32)? { items.first }

    mutating func push(_ item: (Int32, Int32, Int32)) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown(count: items.count, isLess: { items[$0].0 < items[$1].0 }, swap: { items.swapAt($0, $1) })
    }
}

/// Moves the root of a binary min-heap of `count` items down to its place; returns that place.
@discardableResult
@inline(__always) func siftDown(count: Int, isLess: (Int, Int) -> Bool, swap: (Int, Int) -> Void) -> Int {
    var i = 0
    while true {
        let l = 2 * i + 1
        let r = l + 1
        var smallest = i
        if l < count, isLess(l, smallest) { smallest = l }
        if r < count, isLess(r, smallest) { smallest = r }
        if smallest == i { return i }
        swap(i, smallest)
        i = smallest
    }
}
