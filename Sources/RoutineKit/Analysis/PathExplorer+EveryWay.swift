/// The nodes that run on every way, and on at least one way, from some agenda.
public struct WaysFromAgenda: Sendable, Equatable {
    /// Run on every way: certain to come.
    public var every: Set<Int>
    /// Run on at least one way: still possible.
    public var some: Set<Int>
}

extension PathExplorer {
    /// Which nodes run on every way through the routine: a habit among them is due whenever
    /// the routine is run, one outside them only on some answers.
    public func nodesOnEveryWay() throws(TooComplex) -> Set<Int> {
        try ways(from: routine.start.map(\.target)).every
    }

    /// Which nodes run on every way, and on some way, from `agenda` (an agenda in order, as
    /// ``RoutineRun/agendaTargets`` gives it): the future of a run stopped there. Explored
    /// like ``summarize()``, memoized by agenda: what follows an agenda depends on nothing else.
    public func ways(from agenda: [Target]) throws(TooComplex) -> WaysFromAgenda {
        var memo: [[Target]: WaysFromAgenda] = [:]
        return try ways(from: agenda, memo: &memo)
    }

    /// The same, with `memo` kept between calls: for each agenda at a question, the nodes
    /// every way and some way from it runs, the question included. The stops of many runs
    /// share most of what lies after them.
    public func ways(from agenda: [Target], memo: inout [[Target]: WaysFromAgenda]) throws(TooComplex) -> WaysFromAgenda {
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var every: Set<Int>?
            var some: Set<Int> = []
        }
        let root = try segment(from: agenda, answer: nil)
        var result = WaysFromAgenda(every: Set(root.nodes), some: Set(root.nodes))
        guard let firstQuestion = root.question else { return result }
        if let known = memo[root.key] {
            result.every.formUnion(known.every)
            result.some.formUnion(known.some)
            return result
        }
        var stack = [Frame(key: root.key, question: firstQuestion)]
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                memo[top.key] = WaysFromAgenda(every: (top.every ?? []).union([top.question]), some: top.some.union([top.question]))
                stack.removeLast()
                continue
            }
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: memo.count) }
            var every = Set(next.nodes)
            var some = every
            if let question = next.question {
                guard let known = memo[next.key] else {
                    stack.append(Frame(key: next.key, question: question))
                    continue
                }
                every.formUnion(known.every)
                some.formUnion(known.some)
            }
            let last = stack.count - 1
            stack[last].every = stack[last].every.map { $0.intersection(every) } ?? every
            stack[last].some.formUnion(some)
            stack[last].option += 1
        }
        let below = memo[root.key]!
        result.every.formUnion(below.every)
        result.some.formUnion(below.some)
        return result
    }
}
