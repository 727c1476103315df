import Testing

@testable import RoutineKit

/// The run's header counts the steps on the longest way that remains, exactly: for random
/// routines (the path oracle's), at every state a run can reach, the count and whether the
/// choices are fixed are compared with an enumeration of every way on from there.
struct RunProgressTests {
    /// The most records any way on from `run` adds (the current node's included), and
    /// whether a question is left on some way (the current node included).
    static func enumerate(_ run: RoutineRun) -> (steps: Int, question: Bool) {
        guard let node = run.current else { return (0, false) }
        let options = run.routine.optionCount(of: node)
        let decisions: [RunDecision] = options == 0 ? [.done(value: nil)] : (0..<options).map { .option($0) }
        var best = (steps: 0, question: options > 0)
        for decision in decisions {
            var next = run
            next.decide(decision)
            let after = enumerate(next)
            best.steps = max(best.steps, next.records.count - run.records.count + after.steps)
            best.question = best.question || after.question
        }
        return best
    }

    @Test(arguments: 0..<300)
    func theCountIsTheLongestRemainingWay(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        var first = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
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

    /// A routine whose one question decides between a long and a short way: before it the
    /// count is a bound, after "short" nothing is left, after "long" it is exact.
    @Test func aFixedWayIsCountedExactly() {
        let routine = load("""
            routine "R"
            habit a "A" -> q
            question q "Q?"
              "long" -> b
              "short" -> end
            habit b "B" -> c
            habit c "C"

            """).routine
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
        let routine = load("""
            routine "R"
            question q "Q?"
              "one" -> a1
              "two" -> b1
            habit a1 "A1" -> a2
            habit a2 "A2" -> a3
            habit a3 "A3"
            habit b1 "B1"

            """).routine
        var run = RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))
        #expect(run.stepsLeftAtMost == 4)
        run.trackProgress()
        #expect(run.stepsLeft == StepsLeft(count: 3, isFixed: false))
        run.decide(.option(1))
        #expect(run.stepsLeft == StepsLeft(count: 0, isFixed: true))
    }
}
