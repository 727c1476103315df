/// What a run that stopped early (quit, interrupted, out of answers) leaves of the habits it
/// did not reach (grammar.md, "Statistics"): missed when it was on every way from where the
/// run stopped, not-due when the answers given ruled it out, unknown when it depended on a
/// question not yet answered.
public struct StopOutcome: Sendable {
    enum Ways: Sendable {
        /// Exactly known: the ways from the stop state.
        case exact(WaysFromAgenda)
        /// Too many ways to explore: the current node is certain, the nodes the agenda can
        /// still lead to possible, the others ruled out.
        case live(current: Int?, live: Set<Int>)
        /// The recorded steps no longer replay on the routine as it is now: nothing is known.
        case unknown
    }

    let ways: Ways

    /// The status of a habit the run did not reach, on a day it was scheduled.
    public func status(of node: Int) -> DayStatus {
        switch ways {
        case .exact(let ways):
            return ways.every.contains(node) ? .missed : ways.some.contains(node) ? .unknown : .notDue
        case .live(let current, let live):
            return current == node ? .missed : live.contains(node) ? .unknown : .notDue
        case .unknown:
            return .unknown
        }
    }
}

/// Finds each stopped run's ``StopOutcome``: replays its recorded steps through the run engine
/// and explores the ways from the agenda where it stopped, once per distinct agenda.
public final class StopAnalyzer {
    public let routine: Routine
    private lazy var explorer = PathExplorer(routine)
    private var memo: [[Target]: StopOutcome] = [:]
    /// What the explorer learnt of the agendas after each stop, shared by the next ones.
    private var ways: [[Target]: WaysFromAgenda] = [:]
    private var tooComplex = false

    public init(routine: Routine) {
        self.routine = routine
    }

    public func outcome(of run: StatsRun) -> StopOutcome {
        guard let stopped = Self.replay(run, of: routine) else { return StopOutcome(ways: .unknown) }
        let agenda = stopped.agendaTargets
        if let known = memo[agenda] { return known }
        var outcome: StopOutcome
        if !tooComplex, let ways = try? explorer.ways(from: agenda, memo: &ways) {
            outcome = StopOutcome(ways: .exact(ways))
        } else {
            // Once too complex, every agenda of this routine is: the cheap bound from then on.
            tooComplex = true
            let live = Set((0..<routine.nodeCount).filter { stopped.canStillRun($0) })
            outcome = StopOutcome(ways: .live(current: stopped.current, live: live))
        }
        memo[agenda] = outcome
        return outcome
    }

    /// The run as it was when it stopped, replayed from its steps in the order recorded; nil
    /// when they do not replay on the routine as it is now. A step recorded as not scheduled
    /// is a pass over its node: the engine makes the same pass for a day off its schedule,
    /// and a quota met that week (which the replay does not know) passes like a skip.
    static func replay(_ recorded: StatsRun, of routine: Routine) -> RoutineRun? {
        var run = RoutineRun(routine: routine, date: recorded.date)
        var answers = recorded.answers[...]
        var k = 0
        for step in recorded.steps {
            while let answer = answers.first, answer.after <= k {
                guard run.current == answer.question, answer.option < routine.optionCount(of: answer.question) else { return nil }
                run.decide(.option(answer.option))
                answers.removeFirst()
            }
            k += 1
            if step.result == .notScheduled, run.current != step.node { continue }
            guard run.current == step.node else { return nil }
            run.decide(step.result == .done ? .done(value: step.value) : .skip)
        }
        for answer in answers {
            guard run.current == answer.question, answer.option < routine.optionCount(of: answer.question) else { return nil }
            run.decide(.option(answer.option))
        }
        return run
    }
}
