/// How many of the ways through a routine run one node, and their shortest and longest time.
public struct WaysThroughNode: Sendable, Equatable {
    public var count: BigCount
    public var shortestSeconds: Int
    public var longestSeconds: Int
}

extension PathExplorer {
    /// The ways through each node (nil for a node no way runs), and the summary of them all.
    ///
    /// The agendas at questions form a graph without cycles (a state can only lead to later
    /// ones), so the ways through a node are, for each segment that runs it, the ways into the
    /// segment's state times the ways out of the state it leads to: one pass forward and one
    /// back over the states, linear in the explored segments.
    public func waysThroughNodes() throws(TooComplex) -> (summary: Summary, byNode: [WaysThroughNode?]) {
        struct Transition {
            var nodes: [Int]
            var seconds: Int
            var to: Int?
        }
        struct State {
            var question: Int
            var transitions: [Transition] = []
        }
        struct Flow {
            var count = BigCount()
            var low = Int.max
            var high = Int.min
        }
        let root = try segment(from: routine.start.map(\.target), answer: nil)
        var byNode = [WaysThroughNode?](repeating: nil, count: routine.nodeCount)
        func add(_ node: Int, _ count: BigCount, _ low: Int, _ high: Int) {
            if let old = byNode[node] {
                byNode[node] = WaysThroughNode(
                    count: old.count + count, shortestSeconds: min(old.shortestSeconds, low), longestSeconds: max(old.longestSeconds, high))
            } else {
                byNode[node] = WaysThroughNode(count: count, shortestSeconds: low, longestSeconds: high)
            }
        }
        guard let firstQuestion = root.question else {
            for node in root.nodes { add(node, BigCount(1), root.seconds, root.seconds) }
            return (Summary(count: BigCount(1), shortestSeconds: root.seconds, longestSeconds: root.seconds, states: 0), byNode)
        }
        // Discover the states depth first, recording them in post-order (every successor first).
        var index: [[Target]: Int] = [root.key: 0]
        var states = [State(question: firstQuestion)]
        var keys = [root.key]
        var postOrder: [Int] = []
        var stack: [(state: Int, option: Int)] = [(0, 0)]
        while let (s, option) = stack.last {
            if option == routine.optionCount(of: states[s].question) {
                postOrder.append(s)
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].option += 1
            let next: Segment
            do { next = try segment(from: keys[s], answer: (states[s].question, option)) } catch { throw TooComplex(states: states.count) }
            var to: Int?
            if let question = next.question {
                if let known = index[next.key] {
                    to = known
                } else {
                    to = states.count
                    index[next.key] = states.count
                    states.append(State(question: question))
                    keys.append(next.key)
                    stack.append((states.count - 1, 0))
                }
            }
            states[s].transitions.append(Transition(nodes: next.nodes, seconds: next.seconds, to: to))
        }
        keys = []
        index = [:]
        // Ways out of each state, in post-order: its successors are done before it.
        var outFlow = [Flow](repeating: Flow(), count: states.count)
        for s in postOrder {
            var flow = Flow()
            for t in states[s].transitions {
                let after = t.to.map { outFlow[$0] } ?? Flow(count: BigCount(1), low: 0, high: 0)
                flow.count = flow.count + after.count
                flow.low = min(flow.low, t.seconds + after.low)
                flow.high = max(flow.high, t.seconds + after.high)
            }
            outFlow[s] = flow
        }
        // Ways into each state, in reverse post-order: its predecessors are done before it.
        var inFlow = [Flow](repeating: Flow(), count: states.count)
        inFlow[0] = Flow(count: BigCount(1), low: root.seconds, high: root.seconds)
        for s in postOrder.reversed() {
            let into = inFlow[s]
            add(states[s].question, into.count * outFlow[s].count, into.low + outFlow[s].low, into.high + outFlow[s].high)
            for t in states[s].transitions {
                let after = t.to.map { outFlow[$0] } ?? Flow(count: BigCount(1), low: 0, high: 0)
                let count = into.count * after.count
                let low = into.low + t.seconds + after.low
                let high = into.high + t.seconds + after.high
                for node in t.nodes { add(node, count, low, high) }
                if let to = t.to {
                    inFlow[to].count = inFlow[to].count + into.count
                    inFlow[to].low = min(inFlow[to].low, into.low + t.seconds)
                    inFlow[to].high = max(inFlow[to].high, into.high + t.seconds)
                }
            }
        }
        for node in root.nodes { add(node, outFlow[0].count, root.seconds + outFlow[0].low, root.seconds + outFlow[0].high) }
        let summary = Summary(
            count: outFlow[0].count, shortestSeconds: root.seconds + outFlow[0].low, longestSeconds: root.seconds + outFlow[0].high,
            states: states.count)
        return (summary, byNode)
    }
}
