import RoutineKit

/// The history side of a run, the same for `routine run` and the studio: the day's unfinished
/// run and the plan to resume it, the recorder that keeps the record in step with the run, and
/// what logs and other runs did that day.
///
/// A history problem does not stop a run: `warn` hears of it, and the run goes on unrecorded.
public struct RunHistory {
    public let routine: Routine
    /// The routine file's bytes, for the run's source hash.
    public let source: [UInt8]
    /// The routine's file as the history records it (absolute).
    public let path: String
    public let date: CalendarDate
    /// Nil: the run records nothing (`--no-history`, or no place for a history).
    public let store: HistoryStore?
    public private(set) var recorder: RunRecorder?
    /// What a resumed run took up again; nil for a new run.
    public private(set) var resumed: Resumed?
    private let warn: (Diagnostic) -> Void
    private let note: (String) -> Void

    /// `warn` hears of history problems; `note` of the things a runner says in passing (a
    /// habit done meanwhile), in the words `routine run` prints after "note: ".
    public init(
        routine: Routine, source: [UInt8], path: String, date: CalendarDate, store: HistoryStore?,
        warn: @escaping (Diagnostic) -> Void, note: @escaping (String) -> Void
    ) {
        self.routine = routine
        self.source = source
        self.path = path
        self.date = date
        self.store = store
        self.warn = warn
        self.note = note
    }

    /// What a resumed run kept of the stored one.
    public struct Resumed: Sendable {
        /// The step the run resumes at.
        public var step: Int
        public var kept: Int
        public var dropped: Int
        public var startedAt: Timestamp
        public var utcOffset: Int
        /// The times measured on the kept steps, as measured before the run stopped.
        public var keptSeconds: [Double?]

        /// "resumed at step 4: 3 steps were recorded from 07:02, 1 dropped".
        public var text: String {
            "resumed at step \(step): \(kept) steps were recorded from \(startedAt.clockTime(offset: utcOffset))"
                + (dropped > 0 ? ", \(dropped) dropped" : "")
        }

        /// The `resume` event of `run --json`.
        public var json: JSONValue {
            .object([
                ("event", .string("resume")), ("step", .int(step)), ("started", .string(startedAt.description)),
                ("kept", .int(kept)), ("dropped", .int(dropped)),
            ])
        }
    }

    /// The day's last run of the routine when it can be resumed (not completed); nil otherwise
    /// or without a history.
    public func unfinishedRun() throws(HistoryError) -> StoredRun? {
        guard let store, let latest = try store.latestRun(of: routine.name, on: date.description), latest.isResumable else { return nil }
        return latest
    }

    /// How `stored` would be taken up again, with what logs and other runs did that day.
    public func plan(_ stored: StoredRun) -> ResumePlan {
        ResumePlan(
            stored, routine: routine, date: date, doneThisWeek: doneThisWeek(excluding: stored.id),
            doneEarlier: doneEarlier(excluding: stored.id))
    }

    /// The run to drive, with its recorder: `plan`'s run taken up again, or a new one.
    public mutating func begin(_ plan: ResumePlan?) -> RoutineRun {
        guard let store else { return RoutineRun(routine: routine, date: date) }
        let counts = doneThisWeek(excluding: nil)
        let earlier = doneEarlier(excluding: nil)
        let warn = self.warn
        do {
            if let plan {
                recorder = try RunRecorder.resume(store, plan, onFailure: { warn($0.diagnostic) })
                noteDoneMeanwhile()
                resumed = Resumed(
                    step: plan.run.step, kept: plan.keptSteps, dropped: plan.stored.steps.count - plan.keptSteps,
                    startedAt: plan.stored.startedAt, utcOffset: plan.stored.utcOffset,
                    keptSeconds: plan.stored.steps.prefix(plan.keptSteps).map(\.seconds))
                return plan.run
            }
            recorder = try RunRecorder.start(
                store, routine: routine, path: path, source: source, date: date, onFailure: { warn($0.diagnostic) })
            noteDoneMeanwhile()
        } catch {
            warn(error.diagnostic)
        }
        return RoutineRun(routine: routine, date: date, doneThisWeek: counts, doneEarlier: earlier)
    }

    /// Says so when a habit done in this run had been done meanwhile by a log or another run.
    private func noteDoneMeanwhile() {
        let routine = self.routine
        let note = self.note
        recorder?.onDoneMeanwhile = { index, reason in
            let by = reason == .doneByLog ? "a log" : "another run"
            note("'\(routine.id(of: index))' was done meanwhile by \(by); this run records it as passed over")
        }
    }

    /// The habits a log or another run already did on the run's day, by node index.
    public func doneEarlier(excluding run: Int64?) -> [Int: Completion] {
        guard let store else { return [:] }
        do {
            return try store.doneEarlier(of: routine, on: date, excluding: run)
        } catch {
            warn(error.diagnostic)
            return [:]
        }
    }

    /// Whether a log or another run did habit `node` since this run began; nil without a
    /// history. Asked as the run reaches the habit, so that it is not asked to do it twice.
    public func doneMeanwhile(_ node: Int) -> Completion? {
        guard let recorder else { return nil }
        return doneEarlier(excluding: recorder.runID)[node]
    }

    /// For each habit with a weekly quota, the days of this ISO week (Monday on) it was done,
    /// other runs of today included. Without a history every habit is offered.
    public func doneThisWeek(excluding run: Int64?) -> [Int: Int] {
        guard let store else { return [:] }
        do {
            return try store.doneThisWeek(routine, on: date, excluding: run)
        } catch {
            warn(error.diagnostic)
            return [:]
        }
    }

    /// Why a resumed run drops steps: "'FILE' changed since that run: …".
    public static func describe(_ divergence: ReplayDivergence, file: String) -> String {
        "'\(file)' changed since that run: its step \(divergence.step) ('\(divergence.node)') "
            + "no longer applies, because \(divergence.reason); that step and the ones after it are dropped when it resumes"
    }

    /// Where a resumable run stands: "at step 3 (Stretch)" or "at its end".
    public static func position(of plan: ResumePlan) -> String {
        plan.run.current.map { "at step \(plan.run.step) (\(plan.run.routine.title(of: $0)))" } ?? "at its end"
    }
}
