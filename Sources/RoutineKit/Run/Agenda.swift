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
        precondition(n < Self.maximumNodes, "a routine of more than \(Self.maximumNodes) nodes cannot run")
        live = Array(repeating: false, count: n)
        liveArrowsIn = Array(repeating: 0, count: n)
        onAgenda = Array(repeating: false, count: n + 1)
        ran = Array(repeating: false, count: n)
        position = Array(repeating: 0, count: n + 1)
        // A step writes about seven changes; room for a whole run is reserved, not touched,
        // so that a long run's journal is not copied as it grows.
        journal.reserveCapacity(8 * n)
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
        let flags = (onAgenda[node] ? 1 : 0) | (ran[node] ? 2 : 0) | (live[node] ? 4 : 0)
        journal.append(AgendaChange(.completed, node, Int32(flags)))
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
            onAgenda[index] = true
            fresh.append(index)
        }
        guard !fresh.isEmpty else { return }
        journal.append(AgendaChange(.front, 0, Int32(front)))
        front -= fresh.count
        for (k, index) in fresh.enumerated() {
            journal.append(AgendaChange(.enqueued, index, Int32(position[index])))
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
                journal.append(AgendaChange(.arrows, t, liveArrowsIn[t]))
                liveArrowsIn[t] -= 1
                guard liveArrowsIn[t] == 0, live[t] else { continue }
                if onAgenda[t] {
                    ready.push((position[t], t), journal: &journal)
                } else {
                    journal.append(AgendaChange(.dropped, t, 0))
                    live[t] = false
                    stack.append(w)
                }
            }
        }
    }
}

/// A binary min-heap of (agenda position, node), journaling every write of its array. An
/// entry is one word, position above node, so that an entry and a journal of its writes stay
/// small: positions are unique, so the words order as the positions do.
struct MinHeap: Sendable {
    fileprivate var items: [UInt64] = []

    var isEmpty: Bool { items.isEmpty }

    /// Positions and nodes both fit 32 bits: a routine has fewer than 2^31 nodes, and each
    /// is put on an agenda at most once, so positions count down no further than that.
    @inline(__always) static func pack(_ item: (Int, Int)) -> UInt64 {
        let position = UInt32(bitPattern: Int32(item.0)) ^ 0x8000_0000
        return UInt64(position) << 32 | UInt64(UInt32(bitPattern: Int32(item.1)))
    }

    /// The node of an entry, as the journal keeps it: its position is the node's agenda
    /// position, which does not change while the node waits in the heap.
    @inline(__always) static func node(_ word: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: word)) }

    @inline(__always) static func unpack(_ word: UInt64) -> (Int, Int) {
        (Int(Int32(bitPattern: UInt32(truncatingIfNeeded: word >> 32) ^ 0x8000_0000)), Int(Int32(bitPattern: UInt32(truncatingIfNeeded: word))))
    }

    private mutating func swap(_ i: Int, _ j: Int, _ journal: inout [AgendaChange]) {
        journal.append(AgendaChange(.heapSet, i, Self.node(items[i])))
        journal.append(AgendaChange(.heapSet, j, Self.node(items[j])))
        items.swapAt(i, j)
    }

    mutating func push(_ item: (Int, Int), journal: inout [AgendaChange]) {
        journal.append(AgendaChange(.heapAppend, 0, 0))
        items.append(Self.pack(item))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            swap(i, parent, &journal)
            i = parent
        }
    }

    mutating func pop(journal: inout [AgendaChange]) -> (Int, Int)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        journal.append(AgendaChange(.heapRemoveLast, 0, Self.node(last)))
        if !items.isEmpty {
            journal.append(AgendaChange(.heapSet, 0, Self.node(items[0])))
            items[0] = last
            siftDown(count: items.count, isLess: { items[$0] < items[$1] }, swap: { swap($0, $1, &journal) })
        }
        return Self.unpack(top)
    }
}

/// One write to the agenda, with what it replaced. A run keeps one for every write of every
/// step, so that going back costs only that step; in one word, a scripted run of a large
/// routine keeps several for each of its nodes and stays near the size of the routine.
/// A heap entry is kept as its node alone: undone newest first, the agenda's positions are
/// as they were when the entry was written, and a node keeps its position while it waits.
struct AgendaChange: Sendable {
    enum Kind: UInt32, Sendable {
        /// A node ran: `value` holds its old on-agenda, ran and live flags (bits 0, 1, 2).
        case completed
        /// A node was put on the agenda: it was not on it, and `value` was its position.
        case enqueued
        case front
        /// `value` was the node's count of live arrows in.
        case arrows
        /// A node stopped being live.
        case dropped
        /// Heap slot `index` held node `value`.
        case heapSet
        case heapAppend
        /// The heap's last entry, node `value`, was removed.
        case heapRemoveLast
    }

    /// The kind in the top three bits, the node or heap slot below.
    private let tagged: UInt32
    let value: Int32

    /// Node indexes and heap slots fit the 29 bits left by the kind (``Agenda/maximumNodes``).
    init(_ kind: Kind, _ index: Int, _ value: Int32) {
        tagged = kind.rawValue << 29 | UInt32(truncatingIfNeeded: index)
        self.value = value
    }

    var kind: Kind { Kind(rawValue: tagged >> 29)! }
    var index: Int { Int(tagged & (1 << 29 - 1)) }
}

extension Agenda {
    /// The most nodes a run's agenda takes: its journal keeps a node's index in 29 bits.
    public static let maximumNodes = 1 << 29 - 1

    /// The heap entry of `node`, which is on the agenda.
    private func heapEntry(_ node: Int) -> UInt64 { MinHeap.pack((position[node], node)) }

    /// A point in the agenda's history that ``undo(to:)`` can return to.
    public var mark: Int { journal.count }

    /// Takes the agenda back to how it was at `mark`, undoing the changes since, newest first.
    public mutating func undo(to mark: Int) {
        while journal.count > mark {
            let change = journal.removeLast()
            let n = change.index
            switch change.kind {
            case .completed:
                onAgenda[n] = change.value & 1 != 0
                ran[n] = change.value & 2 != 0
                live[n] = change.value & 4 != 0
            case .enqueued:
                onAgenda[n] = false
                position[n] = Int(change.value)
            case .front: front = Int(change.value)
            case .arrows: liveArrowsIn[n] = change.value
            case .dropped: live[n] = true
            case .heapSet: ready.items[n] = heapEntry(Int(change.value))
            case .heapAppend: ready.items.removeLast()
            case .heapRemoveLast: ready.items.append(heapEntry(Int(change.value)))
            }
        }
    }
}
