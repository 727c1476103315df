import Testing

@testable import RoutineKit

/// The run's header counts the steps on the longest way that remains, exactly: for random
/// routines (the path oracle's), at every state a run can reach, the count and whether the
/// choices are fixed are compared with an enumeration of every way on from there.
struct RunProgressTests {
    /// The most steps that ask on any way on from `run` (the current node's included; not the
    /// habits passed over), and whether a question is left on some way (the current node
    /// included).
    static func enumerate(_ run: RoutineRun) -> (steps: Int, question: Bool) {
        guard let node = run.current else { return (0, false) }
        let options = run.routine.optionCount(of: node)
        let decisions: [RunDecision] = options == 0 ? [.done(value: nil)] : (0..<options).map { .option($0) }
        var best = (steps: 0, question: options > 0)
        for decision in decisions {
            var next = run
            next.decide(decision)
            let after = enumerate(next)
            let asked = next.records[run.records.count...].filter { $0.outcome != .habit(.notScheduled, value: nil) }.count
            best.steps = max(best.steps, asked + after.steps)
            best.question = best.question || after.question
        }
        return best
    }

    @Test(arguments: 0..<300)
    func theCountIsTheLongestRemainingWay(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        // Every third habit done earlier that day (from the second seed on): passed over.
        let earlier =
            seed == 0
            ? [:]
            : Dictionary(
                uniqueKeysWithValues: (0..<routine.nodeCount).filter { !routine.isQuestion($0) && ($0 + Int(seed)) % 3 == 0 }.map {
                    ($0, Completion(source: .log, time: "07:00"))
                })
        var first = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23), doneEarlier: earlier)
        first.trackProgress()
        var stack = [first]
        var checked = 0
        while let run = stack.popLast(), checked < 2_000 {
            guard let node = run.current else { continue }
            checked += 1
            let expected = Self.enumerate(run)
            let shown = run.stepsLeft
            #expect(shown == StepsLeft(count: expected.steps - 1, isFixed: !expected.question), "seed \(seed), step \(run.step)")
            let options = routine.optionCount(of: node)
            for decision in options == 0 ? [RunDecision.done(value: nil)] : (0..<options).map({ .option($0) }) {
                var next = run
                next.decide(decision)
                stack.append(next)
                // Back again: the same state, the same count.
                var back = next
                back.back()
                #expect(back.stepsLeft == shown, "seed \(seed), back to step \(run.step)")
            }
        }
    }

    /// Habits the run will pass over are not counted: one on other days, one whose weekly
    /// quota is met, one done earlier that day.
    @Test(arguments: [
        ("", "3 more"), ("habit b \"B\" on tue -> c\n", "2 more"), ("habit b \"B\" 2 per week -> c\n", "2 more"),
        ("habit b \"B\" on tue -> c\nhabit c \"C\" on sun -> d\n", "1 more"),
    ])
    func habitsPassedOverAreNotCounted(_ override: String, shown: String) {
        var text = "routine \"R\"\nhabit a \"A\" -> b\n"
        let lines = ["b": "habit b \"B\" -> c\n", "c": "habit c \"C\" -> d\n", "d": "habit d \"D\"\n"]
        for id in ["b", "c", "d"] where !override.contains("habit \(id) ") { text += lines[id]! }
        text += override
        let routine = load(text).routine
        let quota = routine.nodes.firstIndex { $0.perWeek != nil }.map { [$0: 2] } ?? [:]
        var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23), doneThisWeek: quota)
        run.trackProgress()
        #expect(run.stepsLeft.text == shown, "\(text)")
        var earlier = RoutineRun(
            routine: load("routine \"R\"\n" + lines.values.sorted().joined()).routine, date: run.date,
            doneEarlier: [1: Completion(source: .run, time: "07:00")])
        earlier.trackProgress()
        #expect(earlier.stepsLeft.text == "1 more")
    }

    /// The progress of a whole run, each step taken back once and decided again, costs
    /// work in proportion to the routine: a chain of habits with one question half way, at N
    /// and 4N nodes (a stretch worked out again at each step would cost the square).
    @Test func progressWorkGrowsWithTheRoutineNotItsSquare() {
        func work(_ n: Int) -> Int {
            var text = "routine \"R\"\n"
            for i in 0..<n {
                let next = i + 1 < n ? " -> n\(i + 1)" : ""
                if i == n / 2 {
                    text += "question n\(i) \"Q\"\n  \"a\"\(next)\n  \"b\"\(next)\n"
                } else {
                    text += "habit n\(i) \"H\"\(next)\n"
                }
            }
            var run = RoutineRun(routine: load(text).routine, date: CalendarDate(year: 2026, month: 11, day: 23))
            run.trackProgress()
            while let node = run.current {
                let decision: RunDecision = run.routine.isQuestion(node) ? .option(0) : .done(value: nil)
                run.decide(decision)
                run.back()
                run.decide(decision)
            }
            // Past the budget the count would fall back to the live nodes, and the work stop.
            #expect(!run.progressWork.exceeded, "\(n) nodes")
            return run.progressWork.work
        }
        let small = work(1_000)
        let large = work(4_000)
        #expect(small > 0)
        #expect(Double(large) / Double(small) < 6, "4x the nodes cost \(Double(large) / Double(small))x the work")
    }

    /// A routine whose one question decides between a long and a short way: before it the
    /// count is a bound, after "short" nothing is left, after "long" it is exact.
    @Test func aFixedWayIsCountedExactly() {
        let routine = load(
            """
            routine "R"
            habit a "A" -> q
            question q "Q?"
              "long" -> b
              "short" -> end
            habit b "B" -> c
            habit c "C"

            """
        ).routine
        var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
        run.trackProgress()
        #expect(run.stepsLeft.text == "at most 3 more")
        // The live nodes were 4 (a, q, b, c): the old bound said "at most 3 more" too, but
        // not after the question.
        run.decide(.done(value: nil))
        #expect(run.stepsLeft.text == "at most 2 more")
        var long = run
        long.decide(.option(0))
        #expect(long.stepsLeft.text == "1 more")
        long.decide(.done(value: nil))
        #expect(long.stepsLeft.text == "the last step")
    }

    /// Parallel branches: the live nodes overcount what one way can run.
    @Test func theBoundOfTheLiveNodesIsNotTheCount() {
        let routine = load(
            """
            routine "R"
            question q "Q?"
              "one" -> a1
              "two" -> b1
            habit a1 "A1" -> a2
            habit a2 "A2" -> a3
            habit a3 "A3"
            habit b1 "B1"

            """
        ).routine
        var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
        #expect(run.stepsLeftAtMost == 4)
        run.trackProgress()
        #expect(run.stepsLeft == StepsLeft(count: 3, isFixed: false))
        run.decide(.option(1))
        #expect(run.stepsLeft == StepsLeft(count: 0, isFixed: true))
    }
}
