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
    /// The routine's days off in the window (`routine off`): every habit is not due on them.
    public var daysOff: Set<CalendarDate>
    /// The questions, in declaration order, and for each the option answered on each day of
    /// the window (the day's last answer), -1 for none: what `--question` is computed from.
    public var questions: [Int]
    public var answers: [[Int16]]

    /// Builds the report from `runs` (days in any order, but each day's runs in the order they
    /// started: the last answer of a day is its answer) for the days from `since` (or the first run)
    /// through `until`. `unconditional` are the habits on every way through the routine;
    /// `daysOff` the routine's days off.
    public init(
        routine: Routine, runs: [StatsRun], since: CalendarDate?, until: CalendarDate, unconditional: Set<Int>, daysOff: Set<CalendarDate> = []
    ) {
        self.init(
            routine: routine, runs: runs, since: since, until: until, unconditional: unconditional, daysOff: daysOff,
            habitDaysForTwoThreads: 20_000)
    }

    /// `habitDaysForTwoThreads`: from how many habit-days on half of the habits are classified on another thread.
    init(
        routine: Routine, runs: [StatsRun], since: CalendarDate?, until: CalendarDate, unconditional: Set<Int>, daysOff: Set<CalendarDate>,
        habitDaysForTwoThreads: Int
    ) {
        self.routine = routine
        self.until = until
        self.daysOff = daysOff
        // The runs of the window in date order, each day's a range of them: no array per day.
        // The sort is stable, so a day's runs keep the order they started in.
        var inWindow = runs.filter { run in run.date <= until && since.map { run.date >= $0 } ?? true }
        if zip(inWindow, inWindow.dropFirst()).contains(where: { $0.date > $1.date }) { inWindow.sort { $0.date < $1.date } }
        if inWindow.contains(where: { !$0.completed || $0.answersAmended }) {
            let analyzer = StopAnalyzer(routine: routine)
            for k in inWindow.indices where inWindow[k].answersAmended { inWindow[k] = analyzer.replayingAnswers(of: inWindow[k]) }
            for k in inWindow.indices where !inWindow[k].completed && inWindow[k].stop == nil { inWindow[k].stop = analyzer.outcome(of: inWindow[k]) }
        }
        var dayStart: [Int: Int] = [:]
        for (k, run) in inWindow.enumerated() where dayStart[run.date.dayNumber] == nil { dayStart[run.date.dayNumber] = k }
        first = since ?? inWindow.first?.date ?? until
        untilIsOpen = dayStart[until.dayNumber] == nil
        // A day that has not been run yet is not over: it neither breaks a streak nor counts as due.
        let last = untilIsOpen ? until.dayNumber - 1 : until.dayNumber
        let days = first.dayNumber..<max(first.dayNumber, last + 1)
        let classifier = DayClassifier(routine: routine, unconditional: unconditional)
        let habitIndices = (0..<routine.nodeCount).filter { !routine.isQuestion($0) }
        let runs = inWindow
        let starts = dayStart
        let off = Set(daysOff.map(\.dayNumber))
        let classify: @Sendable (ArraySlice<Int>) -> [HabitStats] = { habits in
            Self.habitStats(habits, days: days, runs: runs, dayStart: starts, daysOff: off, classifier: classifier, until: until)
        }
        // Ten years of thirty habits are 110,000 habit-days: half of the habits on another thread.
        let habits: [HabitStats]
        if days.count * habitIndices.count >= habitDaysForTwoThreads, habitIndices.count > 1 {
            let half = habitIndices.count / 2
            let (firstHalf, secondHalf) = alongside({ classify(habitIndices[..<half]) }) { classify(habitIndices[half...]) }
            habits = firstHalf + secondHalf
        } else {
            habits = classify(habitIndices[...])
        }
        // Every habit's days run over the same dates, so they are tallied by position.
        var tallies = Array(repeating: (done: 0, due: 0), count: days.count)
        for habit in habits {
            for (k, day) in habit.days.enumerated() {
                if day.status == .done { tallies[k].done += 1 }
                if day.status == .done || day.status == .skipped || day.status == .missed { tallies[k].due += 1 }
            }
        }
        var daily: [CalendarDate: (done: Int, due: Int)] = [:]
        daily.reserveCapacity(tallies.count)
        for (k, tally) in tallies.enumerated() { daily[first.adding(days: k)] = tally }
        self.habits = habits
        self.daily = daily
        (questions, answers) = Self.answersByDay(routine, runs: inWindow, days: days)
    }

    /// Each question's answer on each day: runs in date and start order, so the day's last run
    /// that answered has the last word.
    static func answersByDay(_ routine: Routine, runs: [StatsRun], days: Range<Int>) -> ([Int], [[Int16]]) {
        let questions = (0..<routine.nodeCount).filter(routine.isQuestion)
        var ordinal = [Int](repeating: -1, count: routine.nodeCount)
        for (k, question) in questions.enumerated() { ordinal[question] = k }
        var answers = Array(repeating: [Int16](repeating: -1, count: days.count), count: questions.count)
        for run in runs where days.contains(run.date.dayNumber) {
            let day = run.date.dayNumber - days.lowerBound
            for answer in run.answers where ordinal[answer.question] >= 0 {
                answers[ordinal[answer.question]][day] = Int16(truncatingIfNeeded: answer.option)
            }
        }
        return (questions, answers)
    }

    /// The figures of `habits` over `days`, from `runs` in date order (`dayStart`: where each
    /// day's runs start).
    static func habitStats(
        _ habits: ArraySlice<Int>, days: Range<Int>, runs: [StatsRun], dayStart: [Int: Int], daysOff: Set<Int>,
        classifier: DayClassifier, until: CalendarDate
    ) -> [HabitStats] {
        let routine = classifier.routine
        var perHabit = Array(repeating: [HabitDay](), count: habits.count)
        for k in perHabit.indices { perHabit[k].reserveCapacity(days.count) }
        for n in days {
            let date = CalendarDate(dayNumber: n)
            var runsOfDay = runs[0..<0]
            if let start = dayStart[n] {
                var end = start
                while end < runs.count, runs[end].date.dayNumber == n { end += 1 }
                runsOfDay = runs[start..<end]
            }
            var record = DayClassifier.DayRecord(runs: runsOfDay, nodeCount: routine.nodeCount)
            record.isDayOff = !daysOff.isEmpty && daysOff.contains(n)
            for (k, index) in habits.enumerated() { perHabit[k].append(classifier.day(index, on: date, record: record)) }
        }
        return habits.enumerated().map { k, index in
            if let quota = routine.perWeek(of: index) {
                applyQuota(quota, to: &perHabit[k], scheduled: classifier, index: index, last: days.upperBound - 1, daysOff: daysOff)
            }
            return HabitStats(index: index, routine: routine, days: perHabit[k], frequency: classifier.frequency(index), until: until)
        }
    }

    /// A weekly quota is the habit's schedule: in each ISO week, days it was not done are not
    /// due, unless the week is over and fell short; then the shortfall (quota less the days
    /// done or skipped) is missed, on the week's last scheduled days.
    /// A day off takes no shortfall.
    static func applyQuota(_ quota: Int, to days: inout [HabitDay], scheduled: DayClassifier, index: Int, last: Int, daysOff: Set<Int> = []) {
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
                if days[k].status == .notDue, scheduled.isScheduled(index, on: days[k].date), !daysOff.contains(days[k].date.dayNumber) {
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
