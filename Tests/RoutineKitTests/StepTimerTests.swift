import Testing

@testable import RoutineKit

/// What a run measures: only a person is timed, from the step shown to the decision, on the
/// clock given (monotonic in a real run); a countdown's time wins; nothing else is a time.
struct StepTimerTests {
    static let routine = load(
        """
        routine "Day"
        habit tea "Tea" -> nap
        habit nap "Nap" for 20m -> run
        habit run "Run" on sun

        """
    ).routine

    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        var now = 1000.0
    }

    @Test func aPersonIsTimedFromTheStepShownToTheDecision() {
        let clock = ManualClock()
        var timer = StepTimer(measures: true, clock: { clock.now })
        // A Monday: `run` is passed over when `nap` is decided.
        var run = RoutineRun(routine: Self.routine, date: CalendarDate(year: 2026, month: 11, day: 2))
        clock.now += 30  // the run's heading, read before the first step is shown
        timer.shown()
        clock.now += 4
        run.decide(.done(value: nil))
        timer.catchUp(run)
        timer.shown()
        clock.now += 2
        timer.timed(1200)  // the countdown ran its 20 minutes
        run.decide(.done(value: nil))
        timer.catchUp(run)
        #expect(timer.seconds == [4, 1200, nil])
        #expect(timer.total == 1204)
        _ = run.back()
        timer.back(to: run.records.count)
        #expect(timer.seconds == [4])
    }

    @Test func aScriptIsNotTimed() {
        let clock = ManualClock()
        var timer = StepTimer(measures: false, clock: { clock.now })
        var run = RoutineRun(routine: Self.routine, date: CalendarDate(year: 2026, month: 11, day: 2))
        timer.shown()
        clock.now += 4
        run.decide(.done(value: nil))
        timer.catchUp(run)
        #expect(timer.seconds == [nil])
        #expect(timer.total == nil)
    }

    @Test func aResumedRunKeepsWhatWasMeasuredBefore() {
        let clock = ManualClock()
        var timer = StepTimer(measures: true, kept: [7, nil], clock: { clock.now })
        #expect(timer.total == 7)
        var run = RoutineRun(routine: Self.routine, date: CalendarDate(year: 2026, month: 11, day: 2))
        run.decide(.done(value: nil))
        run.decide(.done(value: nil))
        timer.catchUp(run)
        #expect(timer.seconds == [7, nil, nil])
    }

    @Test func theMonotonicClockGoesForward() {
        let first = StepTimer.monotonicSeconds()
        #expect(StepTimer.monotonicSeconds() >= first)
    }
}

/// A run's times against a model array of optionals: ``StepTimes`` reads the same, and
/// stores records only up to the last one measured.
struct StepTimesTests {
    @Test(arguments: 0..<20 as Range<UInt64>, [0, 30, 90])
    func stepTimesReadAsTheirRecords(_ seed: UInt64, measuredPercent: Int) {
        var random = RoutineGenerator(seed: seed)
        var times = StepTimes()
        var model: [Double?] = []
        for _ in 0..<300 {
            if random.chance(10), !model.isEmpty {
                let k = random.below(model.count + 1)
                times.removeLast(k)
                model.removeLast(k)
            } else {
                let value = random.chance(measuredPercent) ? Double(random.below(600)) / 4 : nil
                times.append(value)
                model.append(value)
            }
            #expect(times.count == model.count && Array(times) == model)
            #expect(times.storedCount == (model.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0))
        }
        #expect(times == StepTimes(model))
        #expect(StepTimer.took(times) == StepTimer.took(model))
    }

    @Test func aScriptedRunStoresNoTimes() {
        var timer = StepTimer(measures: false)
        var run = RoutineRun(routine: AgendaJournalTests.routine("start list"), date: CalendarDate(year: 2026, month: 11, day: 2))
        while !run.isFinished { run.decide(.done(value: nil)) }
        timer.catchUp(run)
        #expect(timer.seconds.count == run.records.count && timer.seconds.allSatisfy { $0 == nil })
        #expect(timer.seconds.storedCount == 0)
    }
}
