extension PathExplorer {
    /// Which nodes run on every way through the routine: a habit among them is due whenever
    /// the routine is run, one outside them only on some answers. Explored like
    /// ``summarize()``, memoized by agenda: what follows an agenda depends on nothing else.
    public func nodesOnEveryWay() throws(TooComplex) -> Set<Int> {
        struct Frame { var key: [Target]; var question: Int; var option = 0; var common: Set<Int>? }
        let root = try segment(from: routine.start.map(\.target), answer: nil)
        var result = Set(root.nodes)
        guard let firstQuestion = root.question else { return result }
        // For each agenda: the nodes every way from it runs, itself not included.
        var memo: [[Target]: Set<Int>] = [:]
        var stack = [Frame(key: root.key, question: firstQuestion)]
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                memo[top.key] = (top.common ?? []).union([top.question])
                stack.removeLast()
                continue
            }
            let next: Segment
            do { next = try segment(from: top.key, answer: (top.question, top.option)) } catch { throw TooComplex(states: memo.count) }
            var child = Set(next.nodes)
            if let question = next.question {
                guard let known = memo[next.key] else {
                    stack.append(Frame(key: next.key, question: question))
                    continue
                }
                child.formUnion(known)
            }
            let last = stack.count - 1
            stack[last].common = stack[last].common.map { $0.intersection(child) } ?? child
            stack[last].option += 1
        }
        result.formUnion(memo[root.key]!)
        return result
    }
}
