import Testing

@testable import RoutineKit

/// What a run that stopped early leaves of the habits it did not reach, against an oracle:
/// on random routines (the path oracle's generator), a run is stopped after random decisions,
/// and every continuation from there is walked through ``RoutineRun``. A habit on all of them
/// is missed, on some unknown, on none not-due.
struct StopStateOracleTests {
    static let date = CalendarDate(year: 2026, month: 11, day: 23)

    /// The nodes each continuation of `run` reaches, as (on every one, on some).
    static func continuations(of run: RoutineRun) -> (every: Set<Int>, some: Set<Int>) {
        let before = run.records.count
        var every: Set<Int>?
        var some: Set<Int> = []
        var stack = [run]
        while var run = stack.popLast() {
            guard let node = run.current else {
                let reached = Set(run.records[before...].map(\.node))
                every = every.map { $0.intersection(reached) } ?? reached
                some.formUnion(reached)
                continue
            }
            let options = run.routine.optionCount(of: node)
            if options == 0 {
                run.decide(.done(value: nil))
                stack.append(run)
            } else {
                for k in 0..<options {
                    var branch = run
                    branch.decide(.option(k))
                    stack.append(branch)
                }
            }
        }
        return (every ?? [], some)
    }

    /// Three stops per routine through one analyzer, so that what it keeps between stops is
    /// checked too.
    @Test(arguments: 0..<300)
    func aStoppedRunLeavesEachHabitAsItsContinuationsDo(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        var random = RoutineGenerator(seed: seed &+ 1_000)
        let analyzer = StopAnalyzer(routine: routine)
        for _ in 0..<3 {
            var run = RoutineRun(routine: routine, date: Self.date)
            let decisions = Int(random.next() % 6)
            for _ in 0..<decisions {
                guard let node = run.current else { break }
                let options = routine.optionCount(of: node)
                if options > 0 {
                    run.decide(.option(Int(random.next() % UInt64(options))))
                } else {
                    run.decide(random.next() % 3 == 0 ? .skip : .done(value: nil))
                }
            }
            let recorded = run.records.map { RecordedStep($0, of: routine) }
            let stats = StatsRun(date: Self.date, completed: false, recorded: recorded, in: routine)
            let replayed = StopAnalyzer.replay(stats, of: routine)
            #expect(replayed?.agendaTargets == run.agendaTargets, "seed \(seed): the replay stops where the run did")
            let outcome = analyzer.outcome(of: stats)
            let (every, some) = Self.continuations(of: run)
            let reached = Set(run.records.map(\.node))
            for node in 0..<routine.nodeCount where !routine.isQuestion(node) && !reached.contains(node) {
                let expected: DayStatus = every.contains(node) ? .missed : some.contains(node) ? .unknown : .notDue
                #expect(outcome.status(of: node) == expected, "seed \(seed), \(routine.id(of: node)) after \(decisions) decisions")
            }
        }
    }
}
