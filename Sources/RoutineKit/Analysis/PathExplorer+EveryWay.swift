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
    ///
    /// Only the certain nodes are kept, each set as a sorted array: a set per agenda of every
    /// node possible or certain after it grows with the square of the routine (a 20,000-node
    /// routine spent minutes there). Merging arrays counts as work, so a routine whose sets
    /// stay large is refused within the budget like one with too many agendas.
    public func nodesOnEveryWay() throws(TooComplex) -> Set<Int> {
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var every: [Int32]?
        }
        var merged = 0
        func charge(_ items: Int, states: Int) throws(TooComplex) {
            merged += items
            if work + merged > budget { throw TooComplex(states: states) }
        }
        var memo: [[Target]: [Int32]] = [:]
        let root = try segment(from: routine.start.map(\.target), answer: nil)
        var result = Set(root.nodes)
        guard let firstQuestion = root.question else { return result }
        var stack = [Frame(key: root.key, question: firstQuestion)]
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                let every = Self.union(top.every ?? [], [Int32(top.question)])
                try charge(every.count, states: memo.count)
                memo[top.key] = every
                stack.removeLast()
                continue
            }
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: memo.count) }
            var every = next.nodes.map { Int32($0) }.sorted()
            if let question = next.question {
                guard let known = memo[next.key] else {
                    stack.append(Frame(key: next.key, question: question))
                    continue
                }
                try charge(every.count + known.count, states: memo.count)
                every = Self.union(every, known)
            }
            let last = stack.count - 1
            if let sofar = stack[last].every {
                try charge(sofar.count + every.count, states: memo.count)
                stack[last].every = Self.intersection(sofar, every)
            } else {
                stack[last].every = every
            }
            stack[last].option += 1
        }
        for node in memo[root.key]! { result.insert(Int(node)) }
        return result
    }

    /// The merge of two sorted arrays without repeats.
    static func union(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                out.append(a[i])
                i += 1
            } else if b[j] < a[i] {
                out.append(b[j])
                j += 1
            } else {
                out.append(a[i])
                i += 1
                j += 1
            }
        }
        out += a[i...]
        out += b[j...]
        return out
    }

    /// What two sorted arrays without repeats have in common.
    static func intersection(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                i += 1
            } else if b[j] < a[i] {
                j += 1
            } else {
                out.append(a[i])
                i += 1
                j += 1
            }
        }
        return out
    }

    /// Which nodes run on every way, and on some way, from `agenda` (an agenda in order, as
    /// ``RoutineRun/agendaTargets`` gives it): the future of a run stopped there. Explored
    /// like ``summarize()``, memoized by agenda: what follows an agenda depends on nothing else.
    public func ways(from agenda: [Target]) throws(TooComplex) -> WaysFromAgenda {
        var memo = WaysMemo()
        return try ways(from: agenda, memo: &memo)
    }

    /// For each agenda at a question, the nodes every way and some way from it runs (the
    /// question included) as sorted arrays, and the merging work they took: kept between
    /// calls, as the stops of many runs share most of what lies after them.
    public struct WaysMemo: Sendable {
        var known: [[Target]: (every: [Int32], some: [Int32])] = [:]
        var merged = 0
        public init() {}
    }

    /// The same, with `memo` kept between calls. Merged as sorted arrays, like
    /// ``nodesOnEveryWay()``, with the merging counted in the budget: sets per agenda grew with
    /// the square of a wide routine.
    public func ways(from agenda: [Target], memo: inout WaysMemo) throws(TooComplex) -> WaysFromAgenda {
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var every: [Int32]?
            var some: [Int32] = []
        }
        func charge(_ items: Int) throws(TooComplex) {
            memo.merged += items
            if work + memo.merged > budget { throw TooComplex(states: memo.known.count) }
        }
        let root = try segment(from: agenda, answer: nil)
        var result = WaysFromAgenda(every: Set(root.nodes), some: Set(root.nodes))
        guard let firstQuestion = root.question else { return result }
        var stack = memo.known[root.key] == nil ? [Frame(key: root.key, question: firstQuestion)] : []
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                let question = [Int32(top.question)]
                let done = (every: Self.union(top.every ?? [], question), some: Self.union(top.some, question))
                try charge(done.every.count + done.some.count)
                memo.known[top.key] = done
                stack.removeLast()
                continue
            }
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: memo.known.count) }
            var every = Self.sortedWithoutRepeats(next.nodes)
            var some = every
            if let question = next.question {
                guard let known = memo.known[next.key] else {
                    stack.append(Frame(key: next.key, question: question))
                    continue
                }
                try charge(2 * every.count + known.every.count + known.some.count)
                every = Self.union(every, known.every)
                some = Self.union(some, known.some)
            }
            let last = stack.count - 1
            if let sofar = stack[last].every {
                try charge(sofar.count + every.count)
                stack[last].every = Self.intersection(sofar, every)
            } else {
                stack[last].every = every
            }
            try charge(stack[last].some.count + some.count)
            stack[last].some = Self.union(stack[last].some, some)
            stack[last].option += 1
        }
        let below = memo.known[root.key]!
        for node in below.every { result.every.insert(Int(node)) }
        for node in below.some { result.some.insert(Int(node)) }
        return result
    }

    /// `nodes` as a sorted array without repeats.
    static func sortedWithoutRepeats(_ nodes: [Int]) -> [Int32] {
        var sorted = nodes.map { Int32($0) }
        sorted.sort()
        var kept = 0
        for k in sorted.indices where k == 0 || sorted[k] != sorted[kept - 1] {
            sorted[kept] = sorted[k]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }
}
