/// The statistics of one routine over a window of days: every habit's days and figures, and
/// for each day the share of its due habits that were done (the calendar's shading).
public struct StatsReport: Sendable {
    public var routine: Routine
    public var first: CalendarDate
    public var until: CalendarDate
    /// Habits in declaration order.
    public var habits: [HabitStats]
    /// Per day of the window: (done, due), due being done + skipped + missed.
    public var daily: [CalendarDate: (done: Int, due: Int)]
    /// Whether `until` itself counts: a day without a run yet is still open, not missed.
    public var untilIsOpen: Bool

    /// Builds the report from `runs` (any order) for the days from `since` (or the first run)
    /// through `until`. `unconditional` are the habits on every way through the routine.
    public init(routine: Routine, runs: [StatsRun], since: CalendarDate?, until: CalendarDate, unconditional: Set<Int>) {
        self.routine = routine
        self.until = until
        // The runs of the window in date order, each day's a range of them: no array per day.
        var inWindow = runs.filter { run in run.date <= until && since.map { run.date >= $0 } ?? true }
        if zip(inWindow, inWindow.dropFirst()).contains(where: { $0.date > $1.date }) { inWindow.sort { $0.date < $1.date } }
        var dayStart: [Int: Int] = [:]
        for (k, run) in inWindow.enumerated() where dayStart[run.date.dayNumber] == nil { dayStart[run.date.dayNumber] = k }
        func runsOn(_ day: Int) -> ArraySlice<StatsRun> {
            guard let start = dayStart[day] else { return [] }
            var end = start
            while end < inWindow.count, inWindow[end].date.dayNumber == day { end += 1 }
            return inWindow[start..<end]
        }
        first = since ?? inWindow.first?.date ?? until
        untilIsOpen = dayStart[until.dayNumber] == nil
        // A day that has not been run yet is not over: it neither breaks a streak nor counts as due.
        let last = untilIsOpen ? until.dayNumber - 1 : until.dayNumber
        let classifier = DayClassifier(routine: routine, unconditional: unconditional)
        let habitIndices = (0..<routine.nodeCount).filter { !routine.isQuestion($0) }
        var perHabit = Array(repeating: [HabitDay](), count: habitIndices.count)
        for k in perHabit.indices { perHabit[k].reserveCapacity(max(0, last - first.dayNumber + 1)) }
        var daily: [CalendarDate: (done: Int, due: Int)] = [:]
        if first.dayNumber <= last {
            for n in first.dayNumber...last {
                let date = CalendarDate(dayNumber: n)
                let record = DayClassifier.DayRecord(runs: runsOn(n), nodeCount: routine.nodeCount)
                for (k, index) in habitIndices.enumerated() { perHabit[k].append(classifier.day(index, on: date, record: record)) }
            }
        }
        for (k, index) in habitIndices.enumerated() {
            if let quota = routine.perWeek(of: index) { Self.applyQuota(quota, to: &perHabit[k], scheduled: classifier, index: index, last: last) }
        }
        // Every habit's days run over the same dates, so they are tallied by position.
        var tallies = Array(repeating: (done: 0, due: 0), count: max(0, last - first.dayNumber + 1))
        for days in perHabit {
            for (k, day) in days.enumerated() {
                if day.status == .done { tallies[k].done += 1 }
                if day.status == .done || day.status == .skipped || day.status == .missed { tallies[k].due += 1 }
            }
        }
        for (k, tally) in tallies.enumerated() { daily[first.adding(days: k)] = tally }
        let habits = habitIndices.enumerated().map { k, index in
            HabitStats(index: index, routine: routine, days: perHabit[k], frequency: classifier.frequency(index), until: until)
        }
        self.habits = habits
        self.daily = daily
    }

    /// A weekly quota is the habit's schedule: in each ISO week, days it was not done are not
    /// due, unless the week is over and fell short; then the shortfall (quota less the days
    /// done or skipped) is missed, on the week's last scheduled days.
    static func applyQuota(_ quota: Int, to days: inout [HabitDay], scheduled: DayClassifier, index: Int, last: Int) {
        var start = 0
        while start < days.count {
            let monday = days[start].date.weekStart.dayNumber
            var end = start
            while end < days.count, days[end].date.dayNumber < monday + 7 { end += 1 }
            var counted = 0
            for k in start..<end {
                switch days[k].status {
                case .done, .skipped: counted += 1
                default: days[k].status = .notDue
                }
            }
            var shortfall = monday + 6 <= last ? quota - counted : 0
            var k = end - 1
            while shortfall > 0, k >= start {
                if days[k].status == .notDue, scheduled.isScheduled(index, on: days[k].date) {
                    days[k].status = .missed
                    shortfall -= 1
                }
                k -= 1
            }
            start = end
        }
    }

    /// The share of `date`'s due habits that were done; nil when nothing was due or the day
    /// is outside the window.
    public func share(on date: CalendarDate) -> Double? {
        guard let tally = daily[date], tally.due > 0 else { return nil }
        return Double(tally.done) / Double(tally.due)
    }
}
