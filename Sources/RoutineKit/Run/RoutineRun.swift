/// What the person decided about the node in front of them.
public enum RunDecision: Hashable, Sendable {
    /// A habit done; a numeric habit carries the value given.
    case done(value: Double?)
    case skip
    /// A question answered with the option at this index.
    case option(Int)
}

/// What happened to one node in a run.
public enum HabitResult: String, Sendable {
    case done, skipped
    case notScheduled = "not-scheduled"
}

/// One entry of a run's history.
public struct RunRecord: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        case habit(HabitResult, value: Double?)
        case answer(option: Int)
    }

    /// 1-based step number.
    public var step: Int {
        get { Int(step32) }
        set { step32 = Int32(newValue) }
    }
    public var node: Int {
        get { Int(node32) }
        set { node32 = Int32(newValue) }
    }
    public var outcome: Outcome
    /// In 32 bits (a routine has fewer than 2^31 nodes): a scripted run of a large routine
    /// keeps a record for every node, in 32 bytes and not 40.
    private var step32: Int32
    private var node32: Int32

    init(step: Int, node: Int, outcome: Outcome) {
        step32 = Int32(step)
        node32 = Int32(node)
        self.outcome = outcome
    }
}

/// A run of a valid routine on a given date: the agenda, the history, and the node waiting
/// for the person. Same routine, date and decisions: same run.
public struct RoutineRun: Sendable {
    public let routine: Routine
    public let date: CalendarDate
    private let graph: RoutineGraph
    private var agenda: Agenda
    /// The longest remaining way, when tracked: the analysis (shared by copies of the run,
    /// since what it keeps depends on the agenda alone), the stretch of habits the run is on,
    /// and what is left at the current node.
    private var progress: RunProgress?
    private var stretch: RunProgress.Stretch?
    private var progressNow: StepsLeft?
    /// Where each decision was taken, newest last, for ``back()``.
    private var checkpoints: [Checkpoint] = []

    /// In 32-bit fields: a scripted run of a large routine keeps one for every step. The
    /// agenda's mark stays below ``Agenda/journalBound(nodes:)``, below 2^32. The node decided
    /// is not kept: it is the node of the first record its step wrote, the one at `records`.
    private struct Checkpoint: Sendable {
        var agenda: UInt32
        var records: Int32
    }
    public private(set) var records: [RunRecord] = []
    /// The node waiting for a decision; nil once the run is over.
    public private(set) var current: Int?
    /// Whether the run reached `end`, as opposed to running out of agenda.
    public private(set) var reachedEnd = false

    /// How often each habit with a weekly quota was already done in the run's week (by node
    /// index, from the history): one that has met its quota is passed over.
    public let doneThisWeek: [Int: Int]
    /// The habits a log or another run had already done that day (by node index): passed over
    /// like a met quota, never done twice. It grows by ``passOver(doneMeanwhile:)``.
    public private(set) var doneEarlier: [Int: Completion]

    public init(routine: Routine, date: CalendarDate, doneThisWeek: [Int: Int] = [:], doneEarlier: [Int: Completion] = [:]) {
        self.routine = routine
        self.graph = RoutineGraph(routine)
        self.date = date
        self.doneThisWeek = doneThisWeek
        self.doneEarlier = doneEarlier
        agenda = Agenda(graph: graph, start: routine.start.map(\.target))
        // Each node runs at most once: room for the longest run, reserved and not touched, so
        // that a long scripted run does not hold an old and a new copy of either as they grow.
        records.reserveCapacity(routine.nodeCount)
        checkpoints.reserveCapacity(routine.nodeCount)
        advance()
    }

    public var isFinished: Bool { current == nil }
    /// The step number of the current node.
    public var step: Int { records.count + 1 }
    /// Whether there is a decision that ``back()`` can undo.
    public var canGoBack: Bool { !checkpoints.isEmpty }

    /// An upper bound on the steps after the current one: every node that can still run. It
    /// never falls below what follows; `end` or an answer may make the run shorter.
    public var stepsLeftAtMost: Int { max(0, agenda.liveCount - (current == nil ? 0 : 1)) }

    /// The agenda in order, the current node first: what the rest of the run depends on.
    public var agendaTargets: [Target] { agenda.pending }

    /// Whether `node` can still run in this run, on some answers.
    public func canStillRun(_ node: Int) -> Bool { agenda.canRun(node) }

    /// The steps after the current one that will ask on the longest way from here (not those
    /// passed over), exact when no question is left on any way; kept up to date once ``trackProgress()`` was called, and otherwise
    /// (or past the analysis's budget) the bound of ``stepsLeftAtMost``.
    public var stepsLeft: StepsLeft { progressNow ?? StepsLeft(count: stepsLeftAtMost, isFixed: false) }

    /// Keeps ``stepsLeft`` exact from now on, at each step: for a person who reads it. A
    /// script, which shows no progress, need not pay for it.
    public mutating func trackProgress() {
        if progress == nil { progress = RunProgress(routine, asks: (0..<routine.nodeCount).map { routine.isQuestion($0) || isDue($0) }) }
        refreshProgress()
    }

    /// The work the progress has cost so far, and whether it went past its budget (for tests
    /// of growth).
    var progressWork: (work: Int, exceeded: Bool) { (progress?.work ?? 0, progress?.exceeded ?? false) }

    private mutating func refreshProgress() {
        guard let progress else { return }
        progressNow = nil
        guard let node = current else { return }
        if routine.isQuestion(node) {
            stretch = nil
            progressNow = progress.atQuestion(node, agenda: agenda.pending)
            return
        }
        if let known = stretch?.left(records: records.count, current: node) {
            progressNow = known
            return
        }
        stretch = progress.stretch(from: agenda.pending, current: node, records: records.count)
        progressNow = stretch?.left(records: records.count, current: node)
    }

    /// Whether a habit is scheduled on the run's date.
    public func isScheduled(_ node: RoutineNode) -> Bool {
        node.days.map { $0.contains(date.weekday) } ?? true
    }

    /// Applies `decision` to the current node and moves on to the next node that needs the
    /// person, passing over habits not scheduled today.
    public mutating func decide(_ decision: RunDecision) {
        guard let node = current else { return }
        checkpoints.append(Checkpoint(agenda: UInt32(agenda.mark), records: Int32(records.count)))
        apply(decision, to: node)
        advance()
    }

    /// Undoes the last decision, at the cost of what it changed (no replay from the start);
    /// returns the node whose decision was undone, which is current again.
    @discardableResult
    public mutating func back() -> Int? {
        guard let checkpoint = checkpoints.popLast() else { return nil }
        agenda.undo(to: Int(checkpoint.agenda))
        current = records[Int(checkpoint.records)].node
        records.removeSubrange(Int(checkpoint.records)...)
        reachedEnd = false
        // Back along the stretch the run is on, the stretch still holds: each step of it
        // follows from the one before. Back past its start it no longer matches, and a
        // question (where another answer could lead elsewhere) forgets it.
        refreshProgress()
        return current
    }

    /// Whether habit `index` is due today: on one of its days, not done already by a log or
    /// another run, and its weekly quota not met.
    public func isDue(_ index: Int) -> Bool {
        if let days = routine.days(of: index), !days.contains(date.weekday) { return false }
        if doneEarlier[index] != nil { return false }
        if let quota = routine.perWeek(of: index), doneThisWeek[index, default: 0] >= quota { return false }
        return true
    }

    /// Passes over the current habit because a log or another run did it after this run began
    /// (`completion`), as it passes over one done before; a question is left as it is.
    public mutating func passOver(doneMeanwhile completion: Completion) {
        guard let node = current, !routine.isQuestion(node) else { return }
        doneEarlier[node] = completion
        records.append(RunRecord(step: step, node: node, outcome: .habit(.notScheduled, value: nil)))
        agenda.complete(node, targets: routine.targets(of: node))
        advance()
    }

    /// Why the run passed over habit `index` on one of its days because something else had
    /// done it; nil for any other reason (its days, its quota) or when it was not passed over.
    public func passReason(of index: Int) -> PassReason? {
        guard let earlier = doneEarlier[index], routine.days(of: index).map({ $0.contains(date.weekday) }) ?? true else { return nil }
        return earlier.source == .log ? .doneByLog : .doneByRun
    }

    private mutating func apply(_ decision: RunDecision, to index: Int) {
        var targets = routine.targets(of: index)
        let outcome: RunRecord.Outcome
        switch decision {
        case .option(let k):
            targets = routine.targets(ofAnswer: k, of: index) + targets
            outcome = .answer(option: k)
        case .done(let value):
            outcome = .habit(.done, value: value)
        case .skip:
            outcome = .habit(.skipped, value: nil)
        }
        records.append(RunRecord(step: step, node: index, outcome: outcome))
        agenda.complete(index, targets: targets)
    }

    private mutating func advance() {
        current = nil
        while let target = agenda.next() {
            guard case .node(let index) = target else {
                reachedEnd = true
                return
            }
            if !routine.isQuestion(index), !isDue(index) {
                records.append(RunRecord(step: step, node: index, outcome: .habit(.notScheduled, value: nil)))
                agenda.complete(index, targets: routine.targets(of: index))
                continue
            }
            current = index
            refreshProgress()
            return
        }
        refreshProgress()
    }
}
