import Foundation
import Testing

@testable import RoutineKit

/// What is computed on two threads for long histories is what one thread computes.
struct TwoThreadTests {
    struct Failure: Error, Equatable {}

    @Test func bothResultsComeBackAndMainsErrorAfterTheSideHasEnded() throws {
        let (side, main) = alongside({ (1...1000).reduce(0, +) }) { "main" }
        #expect(side == 500_500 && main == "main")
        final class Flag: @unchecked Sendable { var ended = false }
        let flag = Flag()
        #expect(throws: Failure()) {
            try alongside({
                usleep(20_000)
                flag.ended = true
            }) { throw Failure() }
        }
        #expect(flag.ended)
    }

    /// Random days of the statistics tests' routine: every result, values, stopped runs,
    /// two runs on some days, days without a run.
    @Test(arguments: [1, 2, 3])
    func aReportOnTwoThreadsEqualsOneOnOne(_ seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let routine = StatsTests.routine
        let results = ["done", "skipped", "not-scheduled"]
        var runs: [StatsRun] = []
        for day in 0..<400 where random.below(5) > 0 {
            for _ in 0..<(random.below(6) == 0 ? 2 : 1) {
                var steps = ["tea:\(results[random.below(3)])", "mood:=\(random.below(3))"]
                for id in ["run", "rest", "read", "water"] where random.below(3) > 0 {
                    steps.append("\(id):\(results[random.below(3)])" + (id == "water" ? ":\(random.below(12))" : ""))
                }
                runs.append(StatsTests.run(day, steps.joined(separator: " "), stopped: random.below(7) == 0))
            }
        }
        let unconditional = try PathExplorer(routine).nodesOnEveryWay()
        func report(_ threshold: Int) -> StatsReport {
            StatsReport(
                routine: routine, runs: runs, since: StatsTests.monday, until: StatsTests.monday.adding(days: 420),
                unconditional: unconditional, daysOff: [], habitDaysForTwoThreads: threshold)
        }
        let one = report(.max)
        let two = report(1)
        #expect(one.habits.map(\.id) == two.habits.map(\.id))
        for (a, b) in zip(one.habits, two.habits) {
            #expect(a.days == b.days)
            #expect(a.currentStreak == b.currentStreak && a.bestStreak == b.bestStreak && a.score == b.score)
            #expect(a.rate7 == b.rate7 && a.rate30 == b.rate30 && a.rateAll == b.rateAll && a.counts == b.counts)
        }
        #expect(one.daily.count == two.daily.count && one.daily.allSatisfy { two.daily[$0.key]! == $0.value })
        #expect(one.habits.contains { $0.days.contains { $0.status == .missed } })
    }
}
