/// Whether a habit is due on a day, by the statistics' rules (grammar.md, "Day status"; docs/running.md, "Between runs").
public enum Due: Sendable, Hashable {
    /// Scheduled, and on every way through the routine or already reached that day.
    case due
    /// Scheduled, but behind a question the day has not answered yet.
    case maybe
    case notDue(NotDueReason)
}

/// Why a habit is not due on a day.
public enum NotDueReason: String, Sendable, Hashable {
    /// Not on one of its days.
    case notScheduled = "not-scheduled"
    /// Its weekly quota is met by earlier days of the week.
    case quotaMet = "quota-met"
    /// A run that day passed over it (its quota, or done before the run reached it).
    case passedOver = "passed-over"
    /// A run that day completed without reaching it: the answers led elsewhere.
    case notReached = "not-reached"
    /// The day's run stopped, and the answers it gave rule the habit out.
    case ruledOut = "ruled-out"
    /// A day off of the routine (`routine off`): nothing is due.
    case dayOff = "day-off"
    /// No way from `start` leads to it: a habit only logged (`routine done`), never due, as
    /// an import makes of a habit another tracker only tracks (harsh's frequency 0).
    case trackedOnly = "tracked-only"
}

/// What a habit is on a day, as `routine today` and the studio show it.
public enum HabitState: Sendable, Hashable {
    case done(Completion)
    case skipped(Completion)
    /// Due and not yet done or skipped.
    case pending
    case maybe
    case notDue(NotDueReason)

    /// `done`, `skipped`, `due`, `maybe` or `not-due`: the word `today --json` uses.
    public var word: String {
        switch self {
        case .done: "done"
        case .skipped: "skipped"
        case .pending: "due"
        case .maybe: "maybe"
        case .notDue: "not-due"
        }
    }
}

/// The rules of one routine's day: is a habit due, is it done (by which run or log, when),
/// may it be logged. Shared by `routine done`, `routine today`, the runner and the studio.
public struct DayRules: Sendable {
    public let routine: Routine
    public let facts: DayFacts
    /// The habits on every way through the routine.
    public let unconditional: Set<Int>
    /// By node index, whether a way from `start` leads there; nil when not known (every habit
    /// then counts as on a way).
    public let onAWay: [Bool]?
    private var done: [Int: Completion] = [:]
    private var skipped: [Int: Completion] = [:]
    private var passedOver: Set<Int> = []

    public init(routine: Routine, facts: DayFacts, unconditional: Set<Int>, onAWay: [Bool]? = nil) {
        self.routine = routine
        self.facts = facts
        self.unconditional = unconditional
        self.onAWay = onAWay
        for entry in facts.entries {
            let completion = Completion(source: entry.source, time: entry.time, value: entry.value, seconds: entry.seconds)
            switch entry.result {
            // The first completion is the one that counts; a later one needed --force.
            case .done: if done[entry.node] == nil { done[entry.node] = completion }
            case .skipped: skipped[entry.node] = completion
            case .notScheduled: passedOver.insert(entry.node)
            case .answered: break
            }
        }
    }

    /// Whether habit `index` is on one of its days on the facts' date.
    public func isScheduled(_ index: Int) -> Bool {
        routine.days(of: index).map { $0.contains(facts.date.weekday) } ?? true
    }

    /// Whether habit `index`'s weekly quota is met by the days of the week before this one.
    public func isQuotaMet(_ index: Int) -> Bool {
        guard let quota = routine.perWeek(of: index) else { return false }
        return facts.doneEarlierThisWeek[index, default: 0] >= quota
    }

    /// The first run or log that did habit `index` that day.
    public func completion(of index: Int) -> Completion? { done[index] }

    /// Every habit done that day, by node index, with the first run or log that did it: what
    /// a run of that day passes over.
    public var completions: [Int: Completion] { done }

    /// Whether habit `index` is due that day. A habit done or skipped that day was due.
    public func due(_ index: Int) -> Due {
        if done[index] != nil || skipped[index] != nil { return .due }
        if facts.dayOff != nil { return .notDue(.dayOff) }
        if let onAWay, !onAWay[index] { return .notDue(.trackedOnly) }
        if !isScheduled(index) { return .notDue(.notScheduled) }
        if isQuotaMet(index) { return .notDue(.quotaMet) }
        // An amended answer leads there and nothing recorded it: due, as the statistics count it missed.
        if facts.ledToByAmendedAnswers.contains(index) { return .due }
        if passedOver.contains(index) { return .notDue(.passedOver) }
        if facts.runCompleted { return .notDue(.notReached) }
        if let reachable = facts.stillReachable {
            guard reachable.contains(index) else { return .notDue(.ruledOut) }
            if facts.reachableAreCertain { return .due }
        }
        return unconditional.contains(index) ? .due : .maybe
    }

    /// What habit `index` is that day.
    public func state(_ index: Int) -> HabitState {
        if let completion = done[index] { return .done(completion) }
        if let completion = skipped[index] { return .skipped(completion) }
        switch due(index) {
        case .due: return .pending
        case .maybe: return .maybe
        case .notDue(let reason): return .notDue(reason)
        }
    }

    /// Every habit of the routine and its state, in the routine's order, with the day's totals.
    public func overview() -> DayOverview {
        var overview = DayOverview(date: facts.date)
        overview.dayOff = facts.dayOff
        for index in 0..<routine.nodeCount where !routine.isQuestion(index) {
            let state = state(index)
            overview.habits.append((index, state))
            switch state {
            case .done:
                overview.done += 1
                overview.due += 1
            case .skipped:
                overview.skipped += 1
                overview.due += 1
            case .pending:
                overview.pending += 1
                overview.due += 1
            case .maybe: overview.maybe += 1
            case .notDue: break
            }
        }
        overview.next = nextStep(pending: overview.habits.first { $0.state == .pending }?.node, maybe: overview.maybe)
        return overview
    }

    /// The question that comes first in the routine's order, if the day has not answered it, the
    /// run can still reach it, and habits still depend on answers; else the first due habit.
    private func nextStep(pending: Int?, maybe: Int) -> NextStep? {
        if maybe > 0, !facts.runCompleted {
            var answered = Set<Int>()
            for entry in facts.entries where entry.result == .answered { answered.insert(entry.node) }
            let end = pending ?? routine.nodeCount
            if let question = (0..<end).first(where: {
                routine.isQuestion($0) && !answered.contains($0) && (facts.stillReachable?.contains($0) ?? true)
            }) {
                return .question(question)
            }
        }
        return pending.map(NextStep.habit)
    }
}

/// What today's run would do next: a due habit, or a question whose answer decides the rest.
public enum NextStep: Sendable, Hashable {
    case habit(Int)
    case question(Int)

    /// What a status bar shows: the habit's title, or the question's ID and `?` ("mood?").
    public func label(in routine: Routine) -> String {
        switch self {
        case .habit(let node): routine.title(of: node)
        case .question(let node): routine.id(of: node) + "?"
        }
    }
}

/// One routine's day at a glance: each habit's state and the counts a status bar shows.
public struct DayOverview: Sendable {
    public var date: CalendarDate
    public var habits: [(node: Int, state: HabitState)] = []
    /// Due habits, done or skipped ones included.
    public var due = 0
    public var done = 0
    public var skipped = 0
    /// Due and neither done nor skipped.
    public var pending = 0
    public var maybe = 0
    /// What today's run would do next, nil when nothing is due.
    public var next: NextStep?

    /// The day off of the routine on that date (``DayOffNote``); nil on an ordinary day.
    public var dayOff: DayOffNote?

    public init(date: CalendarDate) { self.date = date }

    /// Done over due, 0...100; 100 when nothing is due.
    public var percentage: Int { due == 0 ? 100 : Int((Double(done) * 100 / Double(due)).rounded()) }
}
