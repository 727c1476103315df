/// What one day was for one habit (grammar.md, "Day status"): exactly one of five.
public enum DayStatus: String, Sendable, CaseIterable {
    /// A run that day recorded it done.
    case done
    /// Recorded skipped, and not done in another run that day.
    case skipped
    /// Not scheduled that day, a day off of the routine, a run that day completed without
    /// reaching it, or the answers of a run that stopped early had ruled it out.
    case notDue = "not-due"
    /// Scheduled, not done or skipped, and either a run that day stopped where it was still
    /// certain to come, or there was no run and the habit is on every way through the routine.
    case missed
    /// Whether it was due depended on a question nobody answered that day: no run and the
    /// habit is conditional, or the day's runs stopped before the question that decides it.
    case unknown

    /// The case's place in ``allCases``.
    var ordinal: Int {
        switch self {
        case .done: 0
        case .skipped: 1
        case .notDue: 2
        case .missed: 3
        case .unknown: 4
        }
    }
}

/// One recorded run, as the statistics need it: its day, whether it completed, and what
/// each habit it reached came to, by node index in the routine being counted.
public struct StatsRun: Sendable {
    public var date: CalendarDate
    public var completed: Bool
    /// A log made outside a run (`routine done`): its steps count, but it is no run of the
    /// day, so it neither completes the day nor makes habits it did not reach missed.
    public var isLog = false
    /// A slice, so that every run of a history can share one array of steps.
    public var steps: ArraySlice<Step>
    /// The answers given, as (question, option) indices.
    public var answers: [Answer] = []
    /// An answer was amended afterwards (`routine amend`): the steps after it followed the old
    /// answer, so ``StatsReport`` replays the run with the answers it holds now.
    public var answersAmended = false

    /// How a run that stopped early left the habits it did not reach; nil for a completed run
    /// (set by ``StatsReport`` before the days are classified).
    public var stop: StopOutcome?

    public struct Answer: Sendable {
        public var question: Int
        public var option: Int
        /// How many of the run's habit steps came before it: where it stands among them.
        public var after: Int

        public init(question: Int, option: Int, after: Int = 0) {
            self.question = question
            self.option = option
            self.after = after
        }
    }

    /// One habit's step; steps of questions, and of nodes the routine no longer has, are left out.
    /// Stored in 24 bytes (a 32-bit node, a NaN for no value) rather than 40: ten years of
    /// steps are 110,000 of them, and their pages are faulted in one by one.
    public struct Step: Sendable {
        private var storedValue: Double
        /// NaN for not measured.
        private var storedSeconds: Double
        private var storedNode: Int32
        public var result: RecordedStep.Result

        public init(node: Int, result: RecordedStep.Result, value: Double? = nil, seconds: Double? = nil) {
            storedNode = Int32(truncatingIfNeeded: node)
            self.result = result
            storedValue = value ?? .nan
            storedSeconds = seconds ?? .nan
        }

        /// How long the person took, nil when nobody was timed.
        public var seconds: Double? {
            get { storedSeconds.isNaN ? nil : storedSeconds }
            set { storedSeconds = newValue ?? .nan }
        }

        public var node: Int {
            get { Int(storedNode) }
            set { storedNode = Int32(truncatingIfNeeded: newValue) }
        }

        public var value: Double? {
            get { storedValue.isNaN ? nil : storedValue }
            set { storedValue = newValue ?? .nan }
        }
    }

    public init(date: CalendarDate, completed: Bool, steps: ArraySlice<Step>) {
        self.date = date
        self.completed = completed
        self.steps = steps
    }

    /// A run from recorded steps, matched to `routine` by node ID.
    public init(date: CalendarDate, completed: Bool, recorded: [RecordedStep], seconds: [Double?] = [], in routine: Routine) {
        let ids = routine.indexByID()
        self.init(
            date: date, completed: completed,
            steps: recorded.enumerated().compactMap { k, step in
                guard step.kind == .habit, let node = ids[step.node] else { return nil }
                return Step(node: node, result: step.result, value: step.value, seconds: k < seconds.count ? seconds[k] : nil)
            }[...])
        var habitSteps = 0
        for step in recorded {
            guard let node = ids[step.node] else { continue }
            if step.kind == .habit {
                habitSteps += 1
            } else if let option = step.option {
                answers.append(Answer(question: node, option: option, after: habitSteps))
            }
        }
    }
}

/// One habit on one day: its status, the value given (numeric habits), the time measured.
public struct HabitDay: Sendable, Equatable {
    public var date: CalendarDate
    // NaN for none: 32 bytes a day rather than 48, over every habit and day of the window.
    private var storedValue = Double.nan
    private var storedSeconds = Double.nan
    public var status: DayStatus

    public init(date: CalendarDate, status: DayStatus, value: Double? = nil, seconds: Double? = nil) {
        self.date = date
        self.status = status
        self.value = value
        self.seconds = seconds
    }

    public var value: Double? {
        get { storedValue.isNaN ? nil : storedValue }
        set { storedValue = newValue ?? .nan }
    }

    public var seconds: Double? {
        get { storedSeconds.isNaN ? nil : storedSeconds }
        set { storedSeconds = newValue ?? .nan }
    }

    public static func == (a: HabitDay, b: HabitDay) -> Bool {
        a.date == b.date && a.status == b.status && a.value == b.value && a.seconds == b.seconds
    }
}

/// Applies the day-status rules to a habit over a range of days.
public struct DayClassifier: Sendable {
    public let routine: Routine
    /// The habits on every way through the routine (missed, not unknown, on a day without a run).
    public let unconditional: Set<Int>
    /// By node index, whether a way from `start` leads there: a habit on none is only logged,
    /// never due (``NotDueReason/trackedOnly``).
    public let onAWay: [Bool]

    public init(routine: Routine, unconditional: Set<Int>) {
        self.routine = routine
        self.unconditional = unconditional
        onAWay = RoutineGraph(routine).reachable(from: routine.start.compactMap(\.target.nodeIndex))
    }

    /// What one day's runs recorded, by node index: read once per day, so that classifying
    /// every habit of the day costs a lookup each.
    public struct DayRecord: Sendable {
        struct Entry: Sendable {
            var done = false
            var skipped = false
            var notScheduled = false
            var value: Double?
            /// The day's measured time; nil when no run of the day timed it.
            var seconds: Double?
        }

        /// By node index; empty on a day without runs.
        var entries: [Entry] = []
        var hadRuns = false
        var anyCompleted = false
        /// What each run that stopped early left of the habits it did not reach.
        var stops: [StopOutcome] = []
        /// A day off of the routine: nothing is due, though what a run did still counts.
        var isDayOff = false

        public init(runs: ArraySlice<StatsRun>, nodeCount: Int) {
            hadRuns = runs.contains { !$0.isLog }
            anyCompleted = runs.contains { $0.completed && !$0.isLog }
            if !runs.isEmpty { entries = Array(repeating: Entry(), count: nodeCount) }
            for run in runs {
                if !run.completed, let stop = run.stop { stops.append(stop) }
                for step in run.steps {
                    var entry = entries[step.node]
                    switch step.result {
                    case .done:
                        entry.done = true
                        entry.value = step.value ?? entry.value
                        if let seconds = step.seconds { entry.seconds = (entry.seconds ?? 0) + seconds }
                    case .skipped: entry.skipped = true
                    case .notScheduled: entry.notScheduled = true
                    case .answered: break
                    }
                    entries[step.node] = entry
                }
            }
        }
    }

    /// The status of habit `index` on `date`, given what that day's runs recorded.
    public func day(_ index: Int, on date: CalendarDate, record: DayRecord) -> HabitDay {
        var result = HabitDay(date: date, status: .unknown)
        let entry = record.entries.isEmpty ? nil : record.entries[index]
        if let entry, entry.done {
            result.status = .done
            result.value = entry.value
            result.seconds = entry.seconds
        } else if entry?.skipped == true {
            result.status = .skipped
        } else if record.isDayOff || entry?.notScheduled == true || !onAWay[index] || !isScheduled(index, on: date) {
            result.status = .notDue
        } else if record.anyCompleted {
            // A completed run that never reached it: the answers led elsewhere, or `end` came first.
            result.status = .notDue
        } else if record.hadRuns {
            // Only runs that stopped early: the most due of what each left of it.
            result.status = record.stops.isEmpty ? .missed : .notDue
            for stop in record.stops {
                switch stop.status(of: index) {
                case .missed: result.status = .missed
                case .unknown where result.status == .notDue: result.status = .unknown
                default: break
                }
            }
        } else {
            result.status = unconditional.contains(index) ? .missed : .unknown
        }
        return result
    }

    public func isScheduled(_ index: Int, on date: CalendarDate) -> Bool {
        routine.days(of: index).map { $0.contains(date.weekday) } ?? true
    }

    /// How often the habit is due per day, for the strength score: its days a week over 7.
    public func frequency(_ index: Int) -> Double {
        if let quota = routine.perWeek(of: index) { return Double(quota) / 7 }
        return Double(routine.days(of: index)?.count ?? 7) / 7
    }
}
