import Testing

@testable import RoutineKit

/// What every way and some way runs from a stopped run's agenda, merged as sorted arrays
/// within the budget, against the search with sets it replaced.
struct WaysFromAgendaTests {
    /// The former search: a set per agenda of every node certain and possible after it.
    static func oracle(_ explorer: PathExplorer, from agenda: [Target]) throws -> WaysFromAgenda {
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var every: Set<Int>?
            var some: Set<Int> = []
        }
        var memo: [[Target]: WaysFromAgenda] = [:]
        let root = try explorer.segment(from: agenda, answer: nil)
        var result = WaysFromAgenda(every: Set(root.nodes), some: Set(root.nodes))
        guard let firstQuestion = root.question else { return result }
        var stack = [Frame(key: root.key, question: firstQuestion)]
        while let top = stack.last {
            if top.option == explorer.routine.optionCount(of: top.question) {
                memo[top.key] = WaysFromAgenda(every: (top.every ?? []).union([top.question]), some: top.some.union([top.question]))
                stack.removeLast()
                continue
            }
            let next = try explorer.segment(from: top.key, answer: (top.question, top.option))
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
        result.every.formUnion(memo[root.key]!.every)
        result.some.formUnion(memo[root.key]!.some)
        return result
    }

    /// Agendas of runs stopped after random decisions, on random routines of both generators,
    /// through one memo (as ``StopAnalyzer`` keeps it) and through a fresh one.
    @Test(arguments: 0..<200)
    func theSameWaysAsTheSearchWithSets(_ seed: UInt64) throws {
        var random = RoutineGenerator(seed: seed &* 7_919)
        let routine = seed % 2 == 0 ? PathOracleTests.routine(seed: seed) : random.routine()
        let explorer = PathExplorer(routine)
        var memo = PathExplorer.WaysMemo()
        for _ in 0..<4 {
            var run = RoutineRun(routine: routine, date: StopStateOracleTests.date)
            for _ in 0..<random.below(6) {
                guard let node = run.current else { break }
                let options = routine.optionCount(of: node)
                run.decide(options > 0 ? .option(random.below(options)) : .done(value: nil))
            }
            let agenda = run.agendaTargets
            let expected = try Self.oracle(explorer, from: agenda)
            #expect(try explorer.ways(from: agenda, memo: &memo) == expected, "seed \(seed)")
            #expect(try explorer.ways(from: agenda) == expected, "seed \(seed)")
        }
    }

    /// A chain of questions before a long tail: each question's sets hold the whole tail, so
    /// merging them is the square of the routine while its segments are linear. The merging is
    /// counted: with a budget under it the search is refused, with one above it answered.
    @Test func mergingCountsInTheBudget() throws {
        var text = "routine \"R\"\n"
        for i in 0..<300 { text += "question q\(i) \"Q\"\n  \"a\" -> \(i < 299 ? "q\(i + 1)" : "h0")\n  \"b\" -> \(i < 299 ? "q\(i + 1)" : "h0")\n" }
        for i in 0..<300 { text += "habit h\(i) \"H\"" + (i < 299 ? " -> h\(i + 1)" : "") + "\n" }
        let routine = load(text).routine
        let agenda = routine.start.map(\.target)
        let measured = PathExplorer(routine)
        var memo = PathExplorer.WaysMemo()
        let ways = try measured.ways(from: agenda, memo: &memo)
        #expect(ways.every.count == 600)
        #expect(memo.merged >= 300 * 300, "the merging is counted")
        let segments = measured.work
        var short = PathExplorer.WaysMemo()
        #expect(throws: PathExplorer.TooComplex.self) {
            try PathExplorer(routine, workBudget: segments + memo.merged / 2).ways(from: agenda, memo: &short)
        }
        var enough = PathExplorer.WaysMemo()
        #expect(try PathExplorer(routine, workBudget: segments + memo.merged).ways(from: agenda, memo: &enough) == ways)
    }
}
