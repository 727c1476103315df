import RoutineKit

/// Keeps a run's record in the history in step with the run: each step committed the moment
/// it is decided, `back` taken out again, the end written when the run ends.
///
/// A write that fails (a full disk, a folder made read-only meanwhile) does not stop the run:
/// `onFailure` hears of it once, and nothing more is written for this run.
public final class RunRecorder {
    public let store: HistoryStore
    public let runID: Int64
    /// How many of the run's records the history holds.
    private var recorded: Int
    private var failed = false
    private let onFailure: (HistoryError) -> Void
    /// Hears of a habit done in the run that a log or another run had done meanwhile: its step
    /// is recorded as passed over (``HistoryStore/insertRunStep(_:run:routine:date:)``).
    public var onDoneMeanwhile: ((Int, PassReason) -> Void)?

    private init(store: HistoryStore, runID: Int64, recorded: Int, onFailure: @escaping (HistoryError) -> Void) {
        self.store = store
        self.runID = runID
        self.recorded = recorded
        self.onFailure = onFailure
    }

    /// Records the start of a new run of `routine`.
    public static func start(
        _ store: HistoryStore, routine: Routine, path: String, source: [UInt8], date: CalendarDate,
        onFailure: @escaping (HistoryError) -> Void
    ) throws(HistoryError) -> RunRecorder {
        let now = Timestamp.now()
        let run = StoredRun(
            routine: routine.name, path: path, sourceHash: sourceHash(source), date: date.description, startedAt: now,
            utcOffset: now.localOffset)
        return RunRecorder(store: store, runID: try store.insertRun(run).id, recorded: 0, onFailure: onFailure)
    }

    /// Takes up the stored run of `plan` again: drops the steps that no longer apply, marks
    /// the run as going on, and records what the replay added (habits passed over after the
    /// last recorded step).
    public static func resume(
        _ store: HistoryStore, _ plan: ResumePlan, onFailure: @escaping (HistoryError) -> Void
    ) throws(HistoryError) -> RunRecorder {
        guard let id = plan.stored.id else { throw .unavailable(path: store.path, reason: "the run to resume has no id") }
        try store.deleteSteps(of: id, after: plan.keptSteps)
        try store.reopen(id)
        let recorder = RunRecorder(store: store, runID: id, recorded: plan.keptSteps, onFailure: onFailure)
        recorder.catchUp(plan.run, [])
        return recorder
    }

    /// Brings the record up to date with what `event` changed in `run`. `seconds`: what the
    /// runner measured for each record, in order (``StepTimer/seconds``); a record without a
    /// measurement (a scripted run's) is stored with unknown seconds.
    public func observe(_ event: RunEvent, _ run: RoutineRun, seconds: StepTimes = []) {
        switch event {
        case .record: catchUp(run, seconds)
        case .back:
            attempt { () throws(HistoryError) in try store.deleteSteps(of: runID, after: run.records.count) }
            recorded = min(recorded, run.records.count)
        case .end(let result):
            catchUp(run, seconds)
            attempt { () throws(HistoryError) in try store.finish(runID, result: result, reachedEnd: run.reachedEnd, at: .now()) }
        case .start, .prompt, .invalid, .help, .confirmEnd:
            break
        }
    }

    /// Writes the run's records that the history does not hold yet, each in its own commit.
    private func catchUp(_ run: RoutineRun, _ seconds: StepTimes) {
        while recorded < run.records.count, !failed {
            let record = run.records[recorded]
            let now = Timestamp.now()
            let index = record.node
            let target = run.routine.target(of: index)
            var step = StoredStep(
                decision: RecordedStep(record, of: run.routine), title: run.routine.title(of: index), target: target?.amount,
                unit: target?.unit, decidedAt: now, seconds: recorded < seconds.count ? seconds[recorded] : nil)
            if step.decision.result == .notScheduled { step.reason = run.passReason(of: index) }
            attempt { () throws(HistoryError) in
                let stored = try store.insertRunStep(step, run: runID, routine: run.routine.name, date: run.date.description)
                if let reason = stored.reason, step.reason == nil { onDoneMeanwhile?(index, reason) }
            }
            recorded += 1
        }
    }

    private func attempt(_ body: () throws(HistoryError) -> Void) {
        guard !failed else { return }
        do {
            try body()
        } catch {
            failed = true
            onFailure(error)
        }
    }
}

/// How a stored run would be taken up again: the run replayed from its steps, and where the
/// replay stopped if the routine changed since.
public struct ResumePlan: Sendable {
    public let stored: StoredRun
    /// The run after the replay, waiting for its next decision.
    public let run: RoutineRun
    public let divergence: ReplayDivergence?
    /// How many of the stored steps still apply; the rest are dropped when the run resumes.
    public let keptSteps: Int

    /// `doneEarlier`: what logs and other runs had done that day; a habit the stored run
    /// itself decided is left out of it, so that the replay takes the same way.
    public init(
        _ stored: StoredRun, routine: Routine, date: CalendarDate, doneThisWeek: [Int: Int] = [:], doneEarlier: [Int: Completion] = [:]
    ) {
        self.stored = stored
        var earlier = doneEarlier
        let ids = routine.indexByID()
        for step in stored.steps where step.decision.result != .notScheduled || step.reason == nil {
            if let index = ids[step.decision.node] { earlier[index] = nil }
        }
        var run = RoutineRun(routine: routine, date: date, doneThisWeek: doneThisWeek, doneEarlier: earlier)
        let divergence = run.replay(stored.steps.map(\.decision))
        self.run = run
        self.divergence = divergence
        keptSteps = divergence.map { stop in stored.steps.count { $0.decision.step < stop.step } } ?? stored.steps.count
    }
}
