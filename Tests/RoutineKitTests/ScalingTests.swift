import Foundation
import Testing

@testable import RoutineKit

/// Growth, not speed: each test runs a shape at size N and 4N and compares, either the work
/// done (counted by the code) or the best of three timings within a generous factor. Linear
/// code gives about 4x; the quadratic code these tests were written against gave 16x.
struct ScalingTests {
    /// The best of three timings of `body`, in seconds.
    private func best(_ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            fastest = min(fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return fastest
    }

    /// Best time of `large` over best time of `small`, the two timed in turn five times, so
    /// that a burst of load on a shared machine falls on both sides rather than on one.
    private func ratio(_ large: () -> Double, over small: () -> Double) -> Double {
        var (bestLarge, bestSmall) = (Double.infinity, Double.infinity)
        for _ in 0..<5 {
            bestSmall = min(bestSmall, small())
            bestLarge = min(bestLarge, large())
        }
        return bestLarge / bestSmall
    }

    private func seconds(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private func question(options n: Int) -> Routine {
        var text = "routine \"R\"\nquestion q \"Q\"\n"
        for i in 0..<n { text += "  \"option \(i)\" -> h\(i % 50)\n" }
        for i in 0..<50 { text += "habit h\(i) \"H\"\n" }
        let loaded = load(text)
        precondition(!loaded.hasErrors)
        return loaded.routine
    }

    @Test func mermaidIsLinearInTheOptionsOfOneQuestion() {
        let small = GraphView(question(options: 2_000), showProblems: false)
        let large = GraphView(question(options: 8_000), showProblems: false)
        let ratio = ratio({ seconds { _ = MermaidWriter.write(large) } }, over: { seconds { _ = MermaidWriter.write(small) } })
        #expect(ratio < 8, "4x the options took \(ratio)x the time")
    }

    @Test func aRefusedAnswerCostsTheSameWithFourTimesTheOptions() {
        /// Seconds per refused answer after the first (which builds the question's index).
        func perAnswer(_ routine: Routine) -> Double {
            var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
            var reads = 0
            var started = ContinuousClock.now
            let answers = 3_000
            _ = RunDriver.drive(
                &run,
                read: {
                    reads += 1
                    if reads == 2 { started = .now }
                    return reads <= answers ? .line("no such option") : .endOfInput
                }, emit: { _, _ in })
            let elapsed = ContinuousClock.now - started
            return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(answers - 1)
        }
        let (small, large) = (question(options: 5_000), question(options: 20_000))
        let ratio = ratio({ perAnswer(large) }, over: { perAnswer(small) })
        #expect(ratio < 2.5, "4x the options made each answer \(ratio)x as costly")
    }

    @Test func goingBackCostsTheStepNotTheRun() {
        func chain(_ n: Int) -> Routine {
            var text = "routine \"R\"\n"
            for i in 0..<n { text += "habit h\(i) \"H\"" + (i + 1 < n ? " -> h\(i + 1)\n" : "\n") }
            return load(text).routine
        }
        func walk(_ routine: Routine) {
            var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
            while run.current != nil {
                run.decide(.skip)
                run.back()
                run.decide(.done(value: nil))
            }
        }
        let small = chain(1_000)
        let large = chain(4_000)
        let ratio = best { walk(large) } / best { walk(small) }
        #expect(ratio < 8, "4x the steps with a back each took \(ratio)x the time")
    }

    @Test func goingBackLeavesTheRunAsAReplayWould() {
        var text = "routine \"R\"\nstart -> a, b\n"
        text += "habit a \"A\" on mon -> q\nhabit b \"B\" -> c, q\nhabit c \"C\" -> end\n"
        text += "question q \"Q\"\n  \"x\" -> d\n  \"y\" -> e, c\n  -> f\nhabit d \"D\"\nhabit e \"E\" -> f\nhabit f \"F\"\n"
        let routine = load(text).routine
        for date in [CalendarDate(year: 2026, month: 11, day: 23), CalendarDate(year: 2026, month: 11, day: 24)] {
            for pattern in 0..<64 {
                var run = RoutineRun(routine: routine, date: date)
                var kept: [RunDecision] = []
                var step = 0
                while let node = run.current, step < 20 {
                    let decision: RunDecision = routine.isQuestion(node) ? .option((pattern >> step) & 1) : .done(value: nil)
                    run.decide(decision)
                    kept.append(decision)
                    if (pattern >> (step + 2)) & 1 == 1, run.back() != nil { kept.removeLast() }
                    var replay = RoutineRun(routine: routine, date: date)
                    for decision in kept { replay.decide(decision) }
                    #expect(replay.records == run.records && replay.current == run.current && replay.reachedEnd == run.reachedEnd)
                    step += 1
                }
            }
        }
    }

    /// The same on random routines (those of ``PathOracleTests``): random answers, each step
    /// taken back at random, sometimes several in a row; after each, the run's records, node
    /// and whole agenda are those of a replay of the decisions kept.
    @Test(arguments: 0..<200)
    func goingBackOnRandomRoutinesLeavesTheRunAsAReplayWould(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        var random = RoutineGenerator(seed: seed &+ 7919)
        let date = CalendarDate(year: 2026, month: 11, day: 23)
        var run = RoutineRun(routine: routine, date: date)
        var kept: [RunDecision] = []
        for _ in 0..<40 {
            if let node = run.current, random.next() % 3 != 0 {
                let options = routine.optionCount(of: node)
                let decision: RunDecision = options > 0 ? .option(Int(random.next() % UInt64(options))) : .done(value: nil)
                run.decide(decision)
                kept.append(decision)
            } else {
                for _ in 0..<(1 + Int(random.next() % 3)) where run.back() != nil { kept.removeLast() }
            }
            var replay = RoutineRun(routine: routine, date: date)
            for decision in kept { replay.decide(decision) }
            #expect(replay.records == run.records && replay.current == run.current, "seed \(seed)")
            #expect(replay.reachedEnd == run.reachedEnd && replay.agendaTargets == run.agendaTargets, "seed \(seed)")
        }
    }

    @Test func workInsideOneSegmentCountsAgainstTheBudget() {
        // One question, after a start list of 5,000 habits: two segments, each one very long.
        var text = "routine \"R\"\nstart -> " + (0..<5_000).map { "h\($0)" }.joined(separator: ", ") + ", q\n"
        for i in 0..<5_000 { text += "habit h\(i) \"H\"\n" }
        text += "question q \"Q\"\n  \"a\" -> end\n  \"b\" -> end\n"
        let routine = load(text).routine
        #expect(throws: PathExplorer.TooComplex.self) { try PathExplorer(routine, workBudget: 10_000).summarize() }
        #expect(throws: PathExplorer.TooComplex.self) { try PathExplorer(routine, workBudget: 10_000).forEachPath { _ in true } }
    }

    /// A routine of `n` habits in one of two shapes that keep an agenda long: a `start list`
    /// of them all, or a `wide arrow` to them all, meeting again in one node; nil for another.
    static func wideRoutine(_ shape: String, _ n: Int) -> Routine? {
        var text = "routine \"R\"\n"
        switch shape {
        case "start list":
            text += "start -> " + (0..<n).map { "h\($0)" }.joined(separator: ", ") + "\n"
            for i in 0..<n { text += "habit h\(i) \"H\"\n" }
        case "wide arrow":
            text += "habit x \"X\" -> " + (0..<n).map { "h\($0)" }.joined(separator: ", ") + "\n"
            for i in 0..<n { text += "habit h\(i) \"H\" -> z\n" }
            text += "habit z \"Z\"\n"
        default:
            return nil
        }
        return load(text).routine
    }

    /// A long start list, one arrow with many targets meeting again in one node, and a
    /// question whose options lead into a dense block: linear in the work counted.
    @Test(arguments: ["start list", "wide arrow", "dense options"])
    func pathWorkIsLinearInTheLengthOfAnAgenda(_ shape: String) throws {
        func routine(_ n: Int) -> Routine {
            if let wide = Self.wideRoutine(shape, n) { return wide }
            var text = "routine \"R\"\nquestion q \"Q\"\n"
            for i in 0..<n { text += "  \"o\(i)\" -> d\(i % 40)\n" }
            for i in 0..<40 {
                let next = (i + 1..<min(40, i + 10)).map { "d\($0)" }
                text += "habit d\(i) \"D\"" + (next.isEmpty ? "" : " -> " + next.joined(separator: ", ")) + "\n"
            }
            return load(text).routine
        }
        func work(_ n: Int) throws -> Int {
            let explorer = PathExplorer(routine(n))
            _ = try explorer.summarize()
            return explorer.work
        }
        let ratio = Double(try work(4_000)) / Double(try work(1_000))
        #expect(ratio < 5, "\(shape): 4x the size took \(ratio)x the work")
    }

    @Test func pathWorkIsLinearInAChainOfQuestions() throws {
        func work(_ n: Int) throws -> Int {
            var text = "routine \"R\"\n"
            for i in 0..<n {
                let next = i + 1 < n ? "q\(i + 1)" : "end"
                text += "question q\(i) \"Q\"\n  \"a\" -> a\(i)\n  \"b\" -> \(next)\nhabit a\(i) \"A\" -> \(next)\n"
            }
            let explorer = PathExplorer(load(text).routine)
            _ = try explorer.summarize()
            return explorer.work
        }
        let ratio = Double(try work(2_000)) / Double(try work(500))
        #expect(ratio < 5, "4x the questions took \(ratio)x the work")
    }

    @Test func repeatsOfOneCodeAreCappedWithACount() {
        let text = "routine \"R\"\nhabit a \"A\" -> " + Array(repeating: "b", count: 30_001).joined(separator: ", ") + "\nhabit b \"B\"\n"
        let diagnostics = load(text).diagnostics
        #expect(diagnostics.count == DiagnosticList.limitPerCode + 1)
        #expect(diagnostics.last?.code == .duplicateTarget)
        #expect(diagnostics.last?.message == "and 20000 more W004 not listed (a target listed twice in one arrow)")
        #expect(diagnostics.last?.span == nil)
        // Totals count what was left out: 10,000 listed and 20,000 more.
        #expect(diagnostics.reduce(0) { $0 + $1.count } == 30_000)
    }
}

/// The work `paths` may spend is set from the routine's shape before exploring: a routine
/// whose every node is reachable through random forward arrows within 50 places is refused in
/// a time in proportion to reading it, where it used to run for three billion steps.
struct ShapeBudgetTests {
    /// `n` nodes, each reached from one of the 50 before it, a question every fourth node
    /// splitting its arrows between two answers.
    static func forward(_ n: Int, seed: UInt64) -> String {
        var random = SeededRandom(state: seed)
        var targets = [[Int]](repeating: [], count: n)
        for j in 1..<n { targets[Int.random(in: max(0, j - 50)..<j, using: &random)].append(j) }
        var text = "routine \"Forward\"\n"
        for i in 0..<n {
            if i < n - 1, Bool.random(using: &random) { targets[i].append(Int.random(in: (i + 1)...min(n - 1, i + 50), using: &random)) }
            let list = Array(Set(targets[i])).sorted()
            if i % 4 == 1, list.count >= 2 {
                let yes = stride(from: 0, to: list.count, by: 2).map { "n\(list[$0])" }
                let no = stride(from: 1, to: list.count, by: 2).map { "n\(list[$0])" }
                text += "question n\(i) \"Q\"\n  \"yes\" -> \(yes.joined(separator: ", "))\n  \"no\" -> \(no.joined(separator: ", "))\n"
            } else {
                text += "habit n\(i) \"H\" for 1m" + (list.isEmpty ? "" : " -> " + list.map { "n\($0)" }.joined(separator: ", ")) + "\n"
            }
        }
        return text
    }

    @Test func aWideRoutineGetsASmallBudgetAndIsRefused() {
        let routine = load(Self.forward(2_000, seed: 7)).routine
        let explorer = PathExplorer(routine)
        let graph = RoutineGraph(routine)
        #expect(explorer.budget == 20_000_000 + 60 * (routine.nodeCount + graph.targets.count))
        #expect(throws: PathExplorer.TooComplex.self) { try explorer.summarize() }
    }

    @Test func aNarrowRoutineKeepsRoomToBeCounted() {
        var text = "routine \"Chain\"\n"
        for i in 0..<1_000 {
            text += "question q\(i) \"Q\"\n  \"a\" -> \(i < 999 ? "q\(i + 1)" : "end")\n  \"b\" -> \(i < 999 ? "q\(i + 1)" : "end")\n"
        }
        let routine = load(text).routine
        let explorer = PathExplorer(routine)
        #expect(explorer.budget == 20_000_000 + 1_000 * (routine.nodeCount + RoutineGraph(routine).targets.count))
        #expect((try? explorer.summarize()) != nil)
    }
}
