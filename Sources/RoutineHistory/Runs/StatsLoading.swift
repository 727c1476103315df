import RoutineKit

/// The statistics of a routine as `routine stats` computes them, read from a history: shared
/// by `stats`, `graph --stats` and the studio's `GET /api/stats`, so they agree on every figure.
public struct StatsLoading: Sendable {
    /// The report over the window.
    public var report: StatsReport
    /// The runs it was computed from.
    public var runs: [StatsRun]
    /// The routine has too many ways to tell which habits lie on all of them: its days without
    /// a run then count as unknown (a note worth saying once).
    public var tooManyWays: Bool

    /// The statistics of `routine` over `window` (default: from the first recorded run up to
    /// `today`), from `store` (nil: an empty history, as with no history yet or none kept).
    public init(of routine: Routine, in window: DateWindow, store: HistoryStore?, today: CalendarDate = .today()) throws(HistoryError) {
        let until = window.until ?? today
        let filter = RunFilter(routine: routine.name, since: window.since?.description, until: until.description)
        runs = try store?.statsRuns(filter, of: routine) ?? []
        let daysOff = try store?.daysOff(of: routine.name, from: window.since, through: until) ?? []
        var unconditional: Set<Int> = []
        tooManyWays = false
        do {
            unconditional = try PathExplorer(routine).nodesOnEveryWay()
        } catch {
            tooManyWays = true
        }
        report = StatsReport(
            routine: routine, runs: runs, since: window.since, until: until, unconditional: unconditional, daysOff: Set(daysOff.map(\.date)))
    }
}

extension StatsLoading {
    /// On how many days of the runs something was recorded, whatever made it: a run or a log
    /// (`routine done`, `amend`, an import from another tracker). What the heading of `stats` counts.
    public static func recordedDays(_ runs: [StatsRun]) -> Int { Set(runs.lazy.map(\.date)).count }

    /// Each habit of `routine` on `date` by the statistics' rules, in declaration order: the
    /// one rule `stats`, the week grid and the studio's day view share. Read over `date`'s ISO
    /// week, since a weekly quota's shortfall falls on the week's last days, and one day more
    /// (up to `today`): the last day of a window is open while nothing is recorded, which only
    /// `today` may be. Empty while the day is still open.
    public static func day(_ date: CalendarDate, of routine: Routine, store: HistoryStore?, today: CalendarDate = .today()) throws(HistoryError)
        -> [(index: Int, day: HabitDay)]
    {
        let afterWeek = date.weekStart.adding(days: 7)
        let window = DateWindow(since: date.weekStart, until: max(date, min(afterWeek, today)))
        let report = try StatsLoading(of: routine, in: window, store: store, today: today).report
        let offset = date.dayNumber - report.first.dayNumber
        return report.habits.compactMap { habit in offset >= 0 && offset < habit.days.count ? (habit.index, habit.days[offset]) : nil }
    }
}
