/// The ways through a routine under the run semantics (grammar.md): a way is one sequence of
/// answers, with the habits it runs in run order. Schedules do not prune ways here.
///
/// The future of a run depends only on its ordered agenda: a node that has run can never be
/// reached from the agenda again (it would have waited for that agenda node). So the ways from
/// a question are memoized by the agenda at that question, and routines whose branches
/// reconverge, as routines do, have few distinct agendas: a chain of 60 two-way questions
/// has 60, and 2^60 ways.
public struct PathExplorer {
    public let routine: Routine
    private let graph: RoutineGraph
    /// Short agendas: a window search per step, cheapest while the agenda is short.
    private let windowed: WindowedAgenda
    /// Long agendas: counted incrementally, linear in the segment however long the agenda.
    private let incremental: SegmentAgenda
    /// Past this many entries a segment switches from the one to the other (tests lower it
    /// to exercise the incremental agenda on small routines).
    let longAgenda: Int

    /// Exploring stops beyond this much work (agenda entries scanned and arrows followed, in
    /// every segment), rather than run for hours on a routine whose parallel branches keep
    /// meeting in ever new combinations, or whose agendas are very long.
    public static let workBudget = 3_000_000_000

    /// The work done so far, in the units of ``workBudget``.
    public var work: Int { windowed.work + incremental.work }

    public struct TooComplex: Error, Sendable {
        public let states: Int
    }

    /// The budget this explorer stops at: the one the routine's shape allows
    /// (``shapeBudget(_:order:)``), or less if a test asks for less.
    public let budget: Int

    public init(_ routine: Routine, workBudget: Int = PathExplorer.workBudget) {
        self.init(routine, workBudget: workBudget, longAgenda: 48)
    }

    init(_ routine: Routine, workBudget: Int = PathExplorer.workBudget, longAgenda: Int) {
        self.routine = routine
        self.longAgenda = longAgenda
        graph = RoutineGraph(routine)
        windowed = WindowedAgenda(graph: graph)
        incremental = SegmentAgenda(graph: graph, order: windowed.order)
        budget = min(workBudget, Self.shapeBudget(graph, order: windowed.order))
    }

    /// The work worth spending on a routine, set from its shape before exploring, so that a
    /// routine whose ways cannot be counted is refused in a time in proportion to reading
    /// it, not after minutes. Per node and arrow: 1,000 steps while no more than 48 arrows
    /// cross any point of the topological order (agendas stay short: the generated
    /// 100,000-node routine needs about 300), 60 past that, where agendas are long and
    /// parallel branches meet in combinations without end; and never under 20 million steps
    /// (a fraction of a second) or over ``workBudget``.
    static func shapeBudget(_ graph: RoutineGraph, order: [Int32]) -> Int {
        let n = graph.nodeCount
        var change = [Int32](repeating: 0, count: n + 1)
        for u in 0..<n {
            for v in graph.successors(of: u) where order[Int(v)] > order[u] {
                change[Int(order[u]) + 1] += 1
                change[Int(order[Int(v)])] -= 1
            }
        }
        var crossing = 0
        var widest = 0
        for k in 0..<n {
            crossing += Int(change[k])
            widest = max(widest, crossing)
        }
        let perItem = widest <= 48 ? 1_000 : 60
        return min(workBudget, 20_000_000 + perItem * (n + graph.targets.count))
    }

    /// From an agenda, everything up to the next question (or the end of the run).
    struct Segment {
        var nodes: [Int] = []
        var seconds = 0
        /// The question now first in line, and the agenda it waits on.
        var question: Int?
        var key: [Target] = []
        var reachedEnd = false
    }

    /// Runs from `start`: first answering its question with `option`, if given. The cost is
    /// that of the nodes run and the agenda's window, not of the whole routine.
    /// `answer`: the question first in line in `start` and the option chosen there.
    func segment(from start: [Target], answer: (question: Int, option: Int)?) throws(TooComplex) -> Segment {
        var result = Segment()
        let records = routine.records
        let edges = routine.edges
        var list = start
        if let (q, option) = answer {
            // The question is known to be first in line: no search, which would count the
            // arrows of all of its options once per option.
            list.removeAll { $0 == .node(q) }
            windowed.track(list)
            let chosen = routine.optionRecords[records[q].options.lowerBound + option]
            windowed.push(edges[chosen.next.range], then: edges[records[q].next.range], onto: &list)
        } else {
            windowed.track(list)
        }
        while list.count <= longAgenda, let k = windowed.next(in: list) {
            if work > budget { throw TooComplex(states: 0) }
            guard case .node(let index) = list[k] else {
                result.reachedEnd = true
                return result
            }
            if records[index].kind == .question {
                result.question = index
                result.key = list
                return result
            }
            windowed.untrack(list.remove(at: k))
            result.nodes.append(index)
            result.seconds += records[index].duration ?? 0
            windowed.push(edges[records[index].next.range], onto: &list)
        }
        guard list.count > longAgenda else { return result }
        incremental.start(list)
        while let entry = incremental.next() {
            if work > budget { throw TooComplex(states: 0) }
            guard case .node(let index) = entry else {
                result.reachedEnd = true
                return result
            }
            if records[index].kind == .question {
                result.question = index
                result.key = incremental.pending()
                return result
            }
            result.nodes.append(index)
            result.seconds += records[index].duration ?? 0
            incremental.complete(index, targets: edges[records[index].next.range])
        }
        return result
    }

    /// How many ways there are, and the shortest and longest planned time (sum of durations).
    public struct Summary: Sendable {
        public var count: BigCount
        public var shortestSeconds: Int
        public var longestSeconds: Int
        /// Distinct agendas explored: a measure of how far the routine is from plain branches.
        public var states: Int
    }

    public func summarize() throws(TooComplex) -> Summary {
        struct Value {
            var count: BigCount
            var low: Int
            var high: Int
        }
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var value: Value?
        }
        let root = try segment(from: routine.start.map(\.target), answer: nil)
        guard let firstQuestion = root.question else {
            return Summary(count: BigCount(1), shortestSeconds: root.seconds, longestSeconds: root.seconds, states: 0)
        }
        var memo: [[Target]: Value] = [:]
        var stack = [Frame(key: root.key, question: firstQuestion)]
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                memo[top.key] = top.value ?? Value(count: BigCount(), low: 0, high: 0)
                stack.removeLast()
                continue
            }
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: memo.count) }
            var child: Value
            if let question = next.question {
                guard let known = memo[next.key] else {
                    stack.append(Frame(key: next.key, question: question))
                    continue
                }
                child = known
            } else {
                child = Value(count: BigCount(1), low: 0, high: 0)
            }
            child.low += next.seconds
            child.high += next.seconds
            let last = stack.count - 1
            if let value = stack[last].value {
                stack[last].value = Value(count: value.count + child.count, low: min(value.low, child.low), high: max(value.high, child.high))
            } else {
                stack[last].value = child
            }
            stack[last].option += 1
        }
        let value = memo[root.key]!
        return Summary(count: value.count, shortestSeconds: root.seconds + value.low, longestSeconds: root.seconds + value.high, states: memo.count)
    }

    /// One way through the routine.
    public struct Path: Sendable {
        /// (question, option index) in the order asked.
        public var answers: [(question: Int, option: Int)] = []
        /// Every node that runs, questions included, in run order.
        public var nodes: [Int] = []
        public var seconds = 0
        public var reachedEnd = false
    }

    /// Calls `visit` with each way in order (options in the order written) until it returns false.
    public func forEachPath(_ visit: (Path) -> Bool) throws(TooComplex) {
        struct Frame {
            var path: Path
            var key: [Target]
            var question: Int
            var option = 0
        }
        var start = Path()
        let root = try segment(from: routine.start.map(\.target), answer: nil)
        start.nodes = root.nodes
        start.seconds = root.seconds
        start.reachedEnd = root.reachedEnd
        guard let first = root.question else {
            _ = visit(start)
            return
        }
        var stack = [Frame(path: start, key: root.key, question: first)]
        while let top = stack.last {
            guard top.option < routine.optionCount(of: top.question) else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].option += 1
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: stack.count) }
            var path = top.path
            path.answers.append((top.question, top.option))
            path.nodes.append(top.question)
            path.nodes += next.nodes
            path.seconds += next.seconds
            path.reachedEnd = next.reachedEnd
            if let question = next.question {
                stack.append(Frame(path: path, key: next.key, question: question))
            } else if !visit(path) {
                return
            }
        }
    }
}
