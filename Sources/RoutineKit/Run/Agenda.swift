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
///
/// Every change is written to a journal, so that ``undo(to:)`` takes the agenda back to any
/// earlier ``mark`` at the cost of the changes since: going back a step costs that step.
///
/// One of three implementations of the rule, each for a cost the others cannot meet: this one
/// marks the whole routine once per run and keeps a journal for `back`; path exploration
/// (``WindowedAgenda``, ``SegmentAgenda``) starts from thousands of agendas, so it pays only
/// for the part of the routine between an agenda's entries and keeps no undo. PathOracleTests
/// checks on random routines that the three choose the same nodes in the same order.
public struct Agenda: Sendable {
    private let graph: RoutineGraph
    fileprivate var live: [Bool]
    fileprivate var liveArrowsIn: [Int32]
    fileprivate var onAgenda: [Bool]
    fileprivate var ran: [Bool]
    /// Agenda position; smaller is nearer the front. Front insertion counts down.
    fileprivate var position: [Int]
    fileprivate var front = 0
    fileprivate var ready = MinHeap()
    fileprivate var journal: [AgendaChange] = []
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
        guard let (_, node) = ready.pop(journal: &journal) else { return nil }
        if node == endIndex { return .end }
        return .node(node)
    }

    /// Records that `node` ran and puts `targets` at the front of the agenda, in order.
    /// A target already on the agenda keeps its place; a node that already ran is not added.
    public mutating func complete(_ node: Int, targets: [Target]) {
        journal.append(.onAgenda(Int32(node), onAgenda[node]))
        journal.append(.ran(Int32(node), ran[node]))
        journal.append(.live(Int32(node), live[node]))
        onAgenda[node] = false
        ran[node] = true
        live[node] = false
        enqueue(targets)
        release(node)
    }

    /// Whether `node` can still run: it is on the agenda, or the agenda can lead to it.
    public func canRun(_ node: Int) -> Bool { live[node] }

    /// How many nodes can still run: those on the agenda and those it can lead to. Linear in
    /// the routine's size; for the progress a person sees.
    public var liveCount: Int { live.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The targets waiting on the agenda, front first (the node in front of the person
    /// included, until it is completed): the state the paths analysis explores from. Linear
    /// in the routine's size.
    public var pending: [Target] {
        var entries: [(position: Int, index: Int)] = []
        for index in onAgenda.indices where onAgenda[index] { entries.append((position[index], index)) }
        entries.sort { $0.position < $1.position }
        return entries.map { $0.index == endIndex ? .end : .node($0.index) }
    }

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
            journal.append(.onAgenda(Int32(index), false))
            onAgenda[index] = true
            fresh.append(index)
        }
        journal.append(.front(front))
        front -= fresh.count
        for (k, index) in fresh.enumerated() {
            journal.append(.position(Int32(index), position[index]))
            position[index] = front + k
            if index == endIndex || liveArrowsIn[index] == 0 { ready.push((front + k, index), journal: &journal) }
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
                journal.append(.arrows(w, liveArrowsIn[t]))
                liveArrowsIn[t] -= 1
                guard liveArrowsIn[t] == 0, live[t] else { continue }
                if onAgenda[t] {
                    ready.push((position[t], t), journal: &journal)
                } else {
                    journal.append(.live(w, true))
                    live[t] = false
                    stack.append(w)
                }
            }
        }
    }
}

/// A binary min-heap of (agenda position, node), journaling every write of its array.
struct MinHeap: Sendable {
    fileprivate var items: [(Int, Int)] = []

    var isEmpty: Bool { items.isEmpty }

    private mutating func swap(_ i: Int, _ j: Int, _ journal: inout [AgendaChange]) {
        journal.append(.heapSet(Int32(i), items[i]))
        journal.append(.heapSet(Int32(j), items[j]))
        items.swapAt(i, j)
    }

    mutating func push(_ item: (Int, Int), journal: inout [AgendaChange]) {
        journal.append(.heapAppend)
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            swap(i, parent, &journal)
            i = parent
        }
    }

    mutating func pop(journal: inout [AgendaChange]) -> (Int, Int)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        journal.append(.heapRemoveLast(last))
        if !items.isEmpty {
            journal.append(.heapSet(0, items[0]))
            items[0] = last
            siftDown(count: items.count, isLess: { items[$0].0 < items[$1].0 }, swap: { swap($0, $1, &journal) })
        }
        return top
    }
}

/// One write to the agenda, with the value it replaced.
enum AgendaChange: Sendable {
    case live(Int32, Bool)
    case arrows(Int32, Int32)
    case onAgenda(Int32, Bool)
    case ran(Int32, Bool)
    case position(Int32, Int)
    case front(Int)
    case heapSet(Int32, (Int, Int))
    case heapAppend
    case heapRemoveLast((Int, Int))
}

extension Agenda {
    /// A point in the agenda's history that ``undo(to:)`` can return to.
    public var mark: Int { journal.count }

    /// Takes the agenda back to how it was at `mark`, undoing the changes since, newest first.
    public mutating func undo(to mark: Int) {
        while journal.count > mark {
            switch journal.removeLast() {
            case .live(let n, let old): live[Int(n)] = old
            case .arrows(let n, let old): liveArrowsIn[Int(n)] = old
            case .onAgenda(let n, let old): onAgenda[Int(n)] = old
            case .ran(let n, let old): ran[Int(n)] = old
            case .position(let n, let old): position[Int(n)] = old
            case .front(let old): front = old
            case .heapSet(let i, let old): ready.items[Int(i)] = old
            case .heapAppend: ready.items.removeLast()
            case .heapRemoveLast(let old): ready.items.append(old)
            }
        }
    }
}
