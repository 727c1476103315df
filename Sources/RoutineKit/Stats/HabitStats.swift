#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every figure `routine stats` shows for one habit, computed from its days at read time.
public struct HabitStats: Sendable {
    public var index: Int
    public var id: String
    public var title: String
    /// One entry per day of the window, oldest first.
    public var days: [HabitDay]
    public var currentStreak = 0
    public var bestStreak = 0
    /// done / (done + skipped + missed), over the last 7 and 30 days and the whole window;
    /// nil when nothing was due.
    public var rate7: Double?
    public var rate30: Double?
    public var rateAll: Double?
    /// Unknown days over the last 7 and 30 days and the whole window: a rate over a window
    /// with some is a rate over the known days only, and is shown so.
    public var unknown7 = 0
    public var unknown30 = 0
    public var unknownAll: Int { counts[.unknown] ?? 0 }
    /// The days the whole-window rate is over: done, skipped or missed.
    public var dueAll = 0
    /// The strength score, 0...1 (``scoreSteps`` says how each due day moved it).
    public var score = 0.0
    /// Whether any day was due and counted in the score: without one there is no score.
    public var hasScore = false
    /// How often the habit is due per day (f in the score).
    public var frequency: Double
    public var lastDone: CalendarDate?
    public var counts: [DayStatus: Int] = [:]
    /// Numeric habits: the target, the values given (with their days), how often it was met.
    public var target: TargetValue?
    public var values: [(date: CalendarDate, value: Double)] = []
    public var targetMet = 0
    /// Timed habits: the planned seconds, and the average measured on done days.
    public var plannedSeconds: Int?
    public var measuredSeconds: Double?

    /// One due day's contribution to the score: s = m·s + (1 − m)·v.
    public struct ScoreStep: Sendable {
        public var date: CalendarDate
        public var status: DayStatus
        public var value: Double
        public var score: Double
    }

    /// The score's smoothing: m = 0.5^(√f / 13), f the habit's frequency per day.
    public static func multiplier(frequency: Double) -> Double { pow(0.5, frequency.squareRoot() / 13) }

    init(index: Int, routine: Routine, days: [HabitDay], frequency: Double, until: CalendarDate) {
        self.index = index
        id = routine.id(of: index)
        title = routine.title(of: index)
        self.days = days
        target = routine.target(of: index)
        plannedSeconds = routine.duration(of: index)
        self.frequency = frequency
        let m = Self.multiplier(frequency: frequency)
        var current = 0
        var measured: [Double] = []
        // Counted in an array by case, then kept by status: a dictionary update per day was
        // a tenth of `stats` over ten years.
        var tally = [Int](repeating: 0, count: DayStatus.allCases.count)
        defer {
            for (k, status) in DayStatus.allCases.enumerated() where tally[k] > 0 { counts[status] = tally[k] }
        }
        for day in days {
            tally[day.status.ordinal] += 1
            switch day.status {
            case .done:
                current += 1
                bestStreak = max(bestStreak, current)
                lastDone = day.date
                if let value = day.value {
                    values.append((day.date, value))
                    if let target, target.isMet(by: value) { targetMet += 1 }
                }
                // Only days on which the person was timed: a scripted day is not a 0.
                if let seconds = day.seconds { measured.append(seconds) }
            case .missed:
                current = 0
            case .skipped, .notDue, .unknown:
                break
            }
            if let v = Self.scoreValue(day, target: target) {
                score = m * score + (1 - m) * v
                hasScore = true
            }
        }
        currentStreak = current
        measuredSeconds = measured.isEmpty ? nil : measured.reduce(0, +) / Double(measured.count)
        // The days are consecutive, so the last n of them are a suffix.
        let lastDay = days.last.map { $0.date.dayNumber } ?? until.dayNumber
        let last7 = days.suffix(max(0, 7 - (until.dayNumber - lastDay)))
        let last30 = days.suffix(max(0, 30 - (until.dayNumber - lastDay)))
        rate7 = Self.rate(last7)
        rate30 = Self.rate(last30)
        rateAll = Self.rate(days[...])
        unknown7 = last7.reduce(0) { $0 + ($1.status == .unknown ? 1 : 0) }
        unknown30 = last30.reduce(0) { $0 + ($1.status == .unknown ? 1 : 0) }
        dueAll = tally[DayStatus.done.ordinal] + tally[DayStatus.skipped.ordinal] + tally[DayStatus.missed.ordinal]
    }

    /// How each due day moved the score, oldest first: computed again from the days when
    /// asked (`stats --explain`), rather than kept for every habit and day.
    public var scoreSteps: [ScoreStep] {
        let m = Self.multiplier(frequency: frequency)
        var score = 0.0
        return days.compactMap { day in
            guard let v = Self.scoreValue(day, target: target) else { return nil }
            score = m * score + (1 - m) * v
            return ScoreStep(date: day.date, status: day.status, value: v, score: score)
        }
    }

    /// v in the score: 1 for a done day (a numeric habit's share of its target, at most 1; for
    /// a limit, 1 at or under it, down to 0 at twice it),
    /// 0 for a missed one; nil for a day that leaves the score as it is.
    static func scoreValue(_ day: HabitDay, target: TargetValue?) -> Double? {
        switch day.status {
        case .done: target.map { $0.achievement(of: day.value ?? 0) } ?? 1
        case .missed: 0
        case .skipped, .notDue, .unknown: nil
        }
    }

    static func rate(_ days: ArraySlice<HabitDay>) -> Double? {
        var done = 0
        var due = 0
        for day in days {
            switch day.status {
            case .done:
                done += 1
                due += 1
            case .skipped, .missed: due += 1
            case .notDue, .unknown: break
            }
        }
        return due == 0 ? nil : Double(done) / Double(due)
    }

    /// The average of the values given, for a numeric habit.
    public var averageValue: Double? {
        values.isEmpty ? nil : values.map(\.value).reduce(0, +) / Double(values.count)
    }
}
