/// What one day was for one habit (grammar.md, "Day status"): exactly one of five.
public enum DayStatus: String, Sendable, CaseIterable {
    /// A run that day recorded it done.
    case done
    /// Recorded skipped, and not done in another run that day.
    case skipped
    /// Not scheduled that day, or a run that day completed without reaching it.
    case notDue = "not-due"
    /// Scheduled, not done or skipped, and either the day's runs stopped before it, or there
    /// was no run and the habit is on every way through the routine.
    case missed
    /// No run that day, and the habit is conditional: nobody can know whether it was due.
    case unknown
}

/// One recorded run, as the statistics need it: its day, whether it completed, and what
/// each habit it reached came to.
public struct StatsRun: Sendable {
    public var date: CalendarDate
    public var completed: Bool
    public var steps: [RecordedStep]
    /// Seconds spent on each step, in the order of `steps`.
    public var seconds: [Double]

    public init(date: CalendarDate, completed: Bool, steps: [RecordedStep], seconds: [Double] = []) {
        self.date = date
        self.completed = completed
        self.steps = steps
        self.seconds = seconds
    }
}

/// One habit on one day: its status, the value given (numeric habits), the time measured.
public struct HabitDay: Sendable, Equatable {
    public var date: CalendarDate
    public var status: DayStatus
    public var value: Double?
    public var seconds: Double?
}

/// Applies the day-status rules to a habit over a range of days.
public struct DayClassifier: Sendable {
    public let routine: Routine
    /// The habits on every way through the routine (missed, not unknown, on a day without a run).
    public let unconditional: Set<Int>

    public init(routine: Routine, unconditional: Set<Int>) {
        self.routine = routine
        self.unconditional = unconditional
    }

    /// The status of habit `index` on `date`, given that day's runs (maybe none).
    public func day(_ index: Int, on date: CalendarDate, runs: [StatsRun]) -> HabitDay {
        let id = routine.id(of: index)
        var result = HabitDay(date: date, status: .unknown)
        var skipped = false
        var notScheduled = false
        for run in runs {
            for (k, step) in run.steps.enumerated() where step.node == id && step.kind == .habit {
                switch step.result {
                case .done:
                    result.status = .done
                    result.value = step.value ?? result.value
                    result.seconds = (result.seconds ?? 0) + (k < run.seconds.count ? run.seconds[k] : 0)
                case .skipped: skipped = true
                case .notScheduled: notScheduled = true
                case .answered: break
                }
            }
        }
        if result.status == .done { return result }
        if skipped {
            result.status = .skipped
        } else if notScheduled || !isScheduled(index, on: date) {
            result.status = .notDue
        } else if !runs.isEmpty {
            // A completed run that never reached it: the answers led elsewhere, or `end` came first.
            result.status = runs.contains(where: \.completed) ? .notDue : .missed
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
        Double(routine.days(of: index)?.words.count ?? 7) / 7
    }
}
