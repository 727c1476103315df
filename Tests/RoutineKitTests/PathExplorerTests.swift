import Testing

@testable import RoutineKit

struct PathExplorerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let count: String
        let shortest: Int
        let longest: Int
        var testDescription: String { name }
    }

    static let r = "routine \"R\"\n"

    /// Counted by hand.
    static let cases: [Case] = [
        Case(name: "no questions", source: r + "habit a \"A\" for 1m -> b\nhabit b \"B\" for 2m", count: "1", shortest: 180, longest: 180),
        Case(
            name: "one question", source: r + "question q \"Q\"\n \"x\" -> a\n \"y\" -> end\nhabit a \"A\" for 1m", count: "2", shortest: 0,
            longest: 60),
        Case(
            name: "questions in sequence multiply",
            source: r
                + "question q1 \"Q1\"\n \"a\" -> x\n \"b\" -> y\nhabit x \"X\" for 1m -> q2\nhabit y \"Y\" for 3m -> q2\nquestion q2 \"Q2\"\n \"c\" -> z\n \"d\"\n \"e\" -> end\nhabit z \"Z\" for 10m",
            count: "6", shortest: 60, longest: 780),
        Case(
            name: "parallel branches meeting at one question ask it once",
            source: r + "habit h \"H\" -> a, b\nhabit a \"A\" -> q\nhabit b \"B\" -> q\nquestion q \"Q\"\n \"x\" -> end\n \"y\" -> end",
            count: "2", shortest: 0, longest: 0),
        Case(
            name: "a shared habit counts its time once",
            source: r + "question q \"Q\"\n \"x\" -> a\n \"y\"\n -> s\nhabit a \"A\" for 1m -> s\nhabit s \"Shared\" for 10m",
            count: "2", shortest: 600, longest: 660),
        Case(
            name: "end stops pending branches",
            source: r
                + "habit h \"H\" -> x, y\nhabit x \"X\" -> q\nquestion q \"Q\"\n \"stop\" -> end\n \"go\"\nhabit y \"Y\" -> q2\nquestion q2 \"Q2\"\n \"a\"\n \"b\"",
            count: "3", shortest: 0, longest: 0),
    ]

    @Test(arguments: cases)
    func countsAndTimes(_ c: Case) throws {
        let loaded = load(c.source)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map(\.message))")
        let explorer = PathExplorer(loaded.routine)
        let summary = try explorer.summarize()
        #expect(summary.count.description == c.count)
        #expect(summary.shortestSeconds == c.shortest)
        #expect(summary.longestSeconds == c.longest)
        var listed = 0
        var low = Int.max
        var high = 0
        try explorer.forEachPath { path in
            listed += 1
            low = min(low, path.seconds)
            high = max(high, path.seconds)
            return true
        }
        #expect(String(listed) == c.count, "the listing and the count agree")
        #expect(low == c.shortest && high == c.longest)
    }

    /// A chain of questions, each with `options` answers that all meet at the next one.
    static func chain(questions: Int, options: Int) -> String {
        var text = r
        for i in 0..<questions {
            text += "question q\(i) \"Q\(i)\"\n"
            for k in 0..<options { text += " \"o\(k)\" -> h\(i)_\(k)\n" }
            for k in 0..<options {
                text += "habit h\(i)_\(k) \"H\" for \(k + 1)m" + (i + 1 < questions ? " -> q\(i + 1)\n" : "\n")
            }
        }
        return text
    }

    @Test func moreThanTenToTheEighteenWays() throws {
        let loaded = load(Self.chain(questions: 61, options: 2))
        #expect(!loaded.hasErrors)
        let summary = try PathExplorer(loaded.routine).summarize()
        #expect(summary.count.description == "2305843009213693952")  // 2^61
        #expect(summary.shortestSeconds == 61 * 60 && summary.longestSeconds == 61 * 120)
        #expect(summary.states == 61)
    }

    @Test func pastTwoToTheSixtyFour() throws {
        let summary = try PathExplorer(load(Self.chain(questions: 50, options: 3)).routine).summarize()
        #expect(summary.count.description == "717897987691852588770249")  // 3^50
        #expect(summary.count.uint64 == nil)
    }

    @Test func pastTwoToThe256TheCountSaysSo() throws {
        let summary = try PathExplorer(load(Self.chain(questions: 300, options: 2)).routine).summarize()
        #expect(summary.count.isSaturated)
        #expect(summary.count.description == "more than 2^256")
        #expect(summary.shortestSeconds == 300 * 60)
    }

    @Test(arguments: [(UInt64(0), "0"), (UInt64.max, "18446744073709551615")])
    func bigCountPrints(_ value: UInt64, _ text: String) {
        #expect(BigCount(value).description == text)
    }

    @Test func bigCountCarries() {
        #expect((BigCount(UInt64.max) + BigCount(1)).description == "18446744073709551616")
    }

    /// Every way the explorer lists is exactly what `routine run` does with those answers:
    /// the same nodes in the same order, on random routines with converging branches.
    @Test(arguments: 0..<150)
    func waysMatchTheRunEngine(_ seed: Int) throws {
        var generator = RoutineGenerator(seed: UInt64(seed) &* 7919)
        let generated = generator.routine()
        let routine = Routine(
            name: generated.name,
            nodes: generated.nodes.map { node in
                var node = node
                node.days = nil
                return node
            }, explicitStart: generated.explicitStart, startSpan: generated.startSpan, missingNames: generated.missingNames)
        let explorer = PathExplorer(routine)
        var listed = 0
        try explorer.forEachPath { path in
            listed += 1
            var run = RoutineRun(routine: routine, date: CalendarDate("2026-11-23")!)
            var answers = path.answers.makeIterator()
            while let node = run.current {
                if routine.nodes[node].isQuestion {
                    guard let answer = answers.next(), answer.question == node else {
                        Issue.record("the run asked '\(routine.nodes[node].id)' where the explorer did not")
                        return false
                    }
                    run.decide(.option(answer.option))
                } else {
                    run.decide(.done(value: nil))
                }
            }
            #expect(run.records.map(\.node) == path.nodes, "seed \(seed)")
            #expect(run.reachedEnd == path.reachedEnd)
            return listed < 500
        }
        if listed < 500 { #expect(try explorer.summarize().count.description == String(listed)) }
    }

    /// The certain nodes are exactly those on every way listed, and those the agenda walk
    /// with sets finds, on random routines with converging branches.
    @Test(arguments: 0..<150)
    func nodesOnEveryWayAreOnEveryListedWay(_ seed: Int) throws {
        var generator = RoutineGenerator(seed: UInt64(seed) &* 104_729)
        let routine = generator.routine()
        let explorer = PathExplorer(routine)
        var onEvery: Set<Int>?
        var listed = 0
        try explorer.forEachPath { path in
            onEvery = onEvery.map { $0.intersection(path.nodes) } ?? Set(path.nodes)
            listed += 1
            return listed < 20_000
        }
        let certain = try explorer.nodesOnEveryWay()
        if listed < 20_000 { #expect(certain == (onEvery ?? []), "seed \(seed)") }
        #expect(certain == (try explorer.ways(from: routine.start.map(\.target)).every), "seed \(seed)")
    }

    /// A routine whose certain sets stay large is refused within the budget, not after minutes.
    @Test func nodesOnEveryWayStopsAtTheBudget() throws {
        var generator = RoutineGenerator(seed: 7)
        let routine = generator.routine()
        #expect(throws: PathExplorer.TooComplex.self) { try PathExplorer(routine, workBudget: 1).nodesOnEveryWay() }
    }

    @Test func generatedRoutinesAreCountedInLinearTime() throws {
        // The benchmark's shape: random forward arrows within a few nodes, 30% questions.
        var text = Self.r
        var random = RoutineGenerator(seed: 42)
        let n = 3000
        for i in 0..<n {
            if i + 10 < n, random.chance(30) {
                text += "question n\(i) \"Q\"\n"
                for k in 0..<(2 + random.below(3)) { text += " \"a\(k)\" -> \(Self.name(i + 2 + 2 * k + random.below(2), n))\n" }
                text += " -> \(Self.name(i + 1, n))\n"
            } else {
                text +=
                    "habit \(Self.name(i, n)) \"H\" for 1m"
                    + (i + 1 < n ? " -> \(Self.name(i + 1, n)), \(Self.name(min(n - 1, i + 1 + random.below(8)), n))\n" : "\n")
            }
        }
        let loaded = load(text)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.prefix(3).map(\.message))")
        let clock = ContinuousClock()
        var summary: PathExplorer.Summary?
        let elapsed = try clock.measure { summary = try PathExplorer(loaded.routine).summarize() }
        #expect(summary!.count.isSaturated, "astronomically many ways")
        #expect(elapsed < .seconds(20))
    }

    /// Node IDs in `generatedRoutinesAreCountedInLinearTime`.
    static func name(_ i: Int, _ n: Int) -> String { "n\(i)" }

    @Test func examplesHaveTheHandCountedWays() throws {
        for (name, ways) in [("morning", "5"), ("evening", "3"), ("workout", "3"), ("weekly-review", "3")] {
            let source = try String(contentsOf: packageRoot.appendingPathComponent("routines/\(name).rt"), encoding: .utf8)
            #expect(try PathExplorer(load(source).routine).summarize().count.description == ways, "\(name)")
        }
    }
}
