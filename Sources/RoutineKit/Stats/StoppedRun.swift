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
    /// Habits on the way the answers determine that the run walked past without a record
    /// (a run replayed with an amended answer): missed.
    var missed: Set<Int> = []

    /// The status of a habit the run did not reach, on a day it was scheduled.
    public func status(of node: Int) -> DayStatus {
        if missed.contains(node) { return .missed }
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
    private var ways = PathExplorer.WaysMemo()
    private var tooComplex = false

    public init(routine: Routine) {
        self.routine = routine
    }

    public func outcome(of run: StatsRun) -> StopOutcome {
        guard let stopped = Self.replay(run, of: routine) else { return StopOutcome(ways: .unknown) }
        return outcome(stopped)
    }

    /// What `stopped`, a run of this routine as it was when it stopped, leaves of the rest.
    func outcome(_ stopped: RoutineRun) -> StopOutcome {
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

extension StopAnalyzer {
    /// `recorded` as if the answers it holds now had been given while it ran (an answer amended
    /// afterwards, grammar.md "Amended answers"): walked again from the start, each question
    /// taking its answer, each habit the step the run recorded for it. A habit on the way that
    /// the run never recorded (the branch the new answer opens) is missed; where the way
    /// reaches a question the run never answered, it stops there as a run that quit (certain
    /// to come: missed; hanging on the question: unknown). Habits the answers rule out are not
    /// due, their steps dropped; steps of habits still within reach keep their result.
    /// Iterative: each node is taken at most once.
    public func replayingAnswers(of recorded: StatsRun) -> StatsRun {
        let steps = Array(recorded.steps)
        var stepOf: [Int: Int] = [:]
        for (k, step) in steps.enumerated() where stepOf[step.node] == nil { stepOf[step.node] = k }
        var optionOf: [Int: Int] = [:]
        for answer in recorded.answers { optionOf[answer.question] = answer.option }
        var run = RoutineRun(routine: routine, date: recorded.date)
        var kept: [StatsRun.Step] = []
        var answers: [StatsRun.Answer] = []
        var taken = Set<Int>()
        var unrecorded = Set<Int>()
        while let node = run.current, !taken.contains(node) {
            if routine.isQuestion(node) {
                guard let option = optionOf[node], option < routine.optionCount(of: node) else { break }
                answers.append(StatsRun.Answer(question: node, option: option, after: kept.count))
                run.decide(.option(option))
            } else if let k = stepOf[node] {
                kept.append(steps[k])
                // A pass over a habit replays as a skip, as in ``replay(_:of:)``.
                run.decide(steps[k].result == .done ? .done(value: steps[k].value) : .skip)
            } else {
                // On the way, and nobody recorded it: the walk goes on past it (a habit's
                // result never changes the way), and it is missed.
                unrecorded.insert(node)
                run.decide(.skip)
            }
            taken.insert(node)
        }
        var stop: StopOutcome?
        if run.current != nil {
            let rest = outcome(run)
            stop = rest
            // Still on some way from the stop (the agenda's own bound may hold a node no way reaches).
            let onSomeWay = { (node: Int) in !taken.contains(node) && rest.status(of: node) != .notDue }
            for (k, step) in steps.enumerated() where stepOf[step.node] == k && onSomeWay(step.node) { kept.append(step) }
            for answer in recorded.answers where onSomeWay(answer.question) {
                answers.append(StatsRun.Answer(question: answer.question, option: answer.option, after: kept.count))
            }
        } else if !unrecorded.isEmpty {
            stop = StopOutcome(ways: .live(current: nil, live: []))
        }
        stop?.missed = unrecorded
        var replayed = StatsRun(date: recorded.date, completed: stop == nil, steps: kept[...])
        replayed.isLog = recorded.isLog
        replayed.answers = answers
        replayed.stop = stop
        return replayed
    }
}
