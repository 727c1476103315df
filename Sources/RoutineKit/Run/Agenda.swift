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
    /// Agenda position; smaller is nearer the front. Front insertion counts down, once a
    /// node at most, so a position fits 32 bits (``Agenda/maximumNodes``).
    fileprivate var position: [Int32]
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
        // Room for a whole run (``AgendaChange``: at most four changes a node), reserved and not
        // touched, so that a long run's journal is not copied as it grows.
        journal.reserveCapacity(Self.journalBound(nodes: n))
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
        for index in onAgenda.indices where onAgenda[index] { entries.append((Int(position[index]), index)) }
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
        front -= fresh.count
        for (k, index) in fresh.enumerated() {
            journal.append(AgendaChange(.enqueued, index, position[index]))
            position[index] = Int32(front + k)
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
    /// dropping nodes nothing live leads to any more. The counts are not journaled: the undo
    /// of `node`'s completion and of each drop counts the arrows again (``recount(from:)``).
    private mutating func release(_ node: Int) {
        var stack: [Int32] = [Int32(node)]
        while let v = stack.popLast() {
            for w in graph.successors(of: Int(v)) {
                let t = Int(w)
                liveArrowsIn[t] -= 1
                guard liveArrowsIn[t] == 0, live[t] else { continue }
                if onAgenda[t] {
                    ready.push((Int(position[t]), t), journal: &journal)
                } else {
                    journal.append(AgendaChange(.dropped, t, 0))
                    live[t] = false
                    stack.append(w)
                }
            }
        }
    }
}

/// A binary min-heap of (agenda position, node). An entry is one word, position above node:
/// positions are unique, so the words order as the positions do, and each entry is unique.
///
/// A push or a pop moves entries along one path from the root by one level each, so it is
/// journaled as one change from which ``undo(_:entry:)`` works out that path again: a
/// scripted run keeps one change for each, not two for each level an entry moved.
struct MinHeap: Sendable {
    fileprivate(set) var items: [UInt64] = []

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

    /// Journals `.heapPush` with the pushed node.
    mutating func push(_ item: (Int, Int), journal: inout [AgendaChange]) {
        let entry = Self.pack(item)
        journal.append(AgendaChange(.heapPush, 0, Self.node(entry)))
        items.append(entry)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard entry < items[parent] else { break }
            items[i] = items[parent]
            i = parent
        }
        items[i] = entry
    }

    /// Journals `.heapPop` with the slot where the last entry came to rest and the popped node.
    mutating func pop(journal: inout [AgendaChange]) -> (Int, Int)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        var rest = 0
        if !items.isEmpty {
            items[0] = last
            rest = siftDown(count: items.count, isLess: { items[$0] < items[$1] }, swap: { items.swapAt($0, $1) })
        }
        journal.append(AgendaChange(.heapPop, rest, Self.node(top)))
        return Self.unpack(top)
    }

    /// Undoes `change`, the newest push or pop not yet undone; `entry` is the heap entry of
    /// its node.
    mutating func undo(_ change: AgendaChange, entry: UInt64) {
        if change.kind == .heapPush {
            // The pushed entry rests on the path from the last slot up; the entries it passed
            // go back down that path.
            var carry = items.removeLast()
            var i = items.count
            while carry != entry {
                precondition(i > 0, "the pushed entry is not on its path")
                i = (i - 1) / 2
                Swift.swap(&carry, &items[i])
            }
        } else if items.isEmpty {
            items.append(entry)
        } else {
            // The entries from the root to the old last one's rest go back down a level.
            var i = change.index
            let moved = items[i]
            while i > 0 {
                let parent = (i - 1) / 2
                items[i] = items[parent]
                i = parent
            }
            items[0] = entry
            items.append(moved)
        }
    }
}

/// One change to the agenda, with what it replaced, so that going back costs only that step.
/// Only the changes a step decides are kept: a node completed, enqueued, pushed, popped or
/// dropped. What follows from them is worked out again on undo (the counts of the arrows a
/// released node leaves, the front, the heap's moves along one path), so that a forward run
/// keeps at most four a node (``Agenda/journalBound(nodes:)``) in one word each.
/// A heap entry is kept as its node alone: undone newest first, the agenda's positions are
/// as they were when the entry was written, and a node keeps its position while it waits.
struct AgendaChange: Sendable {
    enum Kind: UInt32, Sendable {
        /// A node ran: `value` holds its old on-agenda, ran and live flags (bits 0, 1, 2). Its
        /// release uncounted each of its arrows.
        case completed
        /// A node was put on the agenda: it was not on it, and `value` was its position. The
        /// front moved by one for each node put on it, so its undo moves the front back by one.
        case enqueued
        /// A node stopped being live, and each of its arrows was uncounted.
        case dropped
        /// Node `value` was pushed on the heap.
        case heapPush
        /// Node `value` was popped off the heap; the old last entry came to rest at slot `index`.
        case heapPop
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

    /// The most changes a run of `nodes` nodes keeps at once, however it went back: undone
    /// changes leave the journal, and going forward each node (and `end`) is enqueued, pushed
    /// and popped at most once, and completed or dropped, not both. Below 2^32 for any
    /// routine that can run.
    public static func journalBound(nodes: Int) -> Int { 4 * (nodes + 1) }

    /// The heap entry of `node`, which is on the agenda.
    private func heapEntry(_ node: Int) -> UInt64 { MinHeap.pack((Int(position[node]), node)) }

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
                recount(from: n)
            case .enqueued:
                onAgenda[n] = false
                position[n] = change.value
                front += 1
            case .dropped:
                live[n] = true
                recount(from: n)
            case .heapPush, .heapPop: ready.undo(change, entry: heapEntry(Int(change.value)))
            }
        }
    }

    /// Whether this agenda is in the same state as `other`, an agenda of the same routine,
    /// whatever their journals hold: for tests of ``undo(to:)``.
    func isInTheState(of other: Agenda) -> Bool {
        live == other.live && liveArrowsIn == other.liveArrowsIn && onAgenda == other.onAgenda && ran == other.ran
            && position == other.position && front == other.front && ready.items == other.ready.items
    }

    /// Counts again the arrows out of `node`, which its release uncounted. Counts only add
    /// up, so the order in which the releases of a step are undone does not matter.
    private mutating func recount(from node: Int) {
        for w in graph.successors(of: node) { liveArrowsIn[Int(w)] += 1 }
    }
}
