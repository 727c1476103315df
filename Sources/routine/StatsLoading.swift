import RoutineHistory
import RoutineKit

extension HistoryOptions {
    /// The statistics of `routine` over `range` (default: the first recorded run up to today),
    /// from this history, and the runs they were computed from; shared by `stats` and
    /// `graph --stats`. A routine with too many ways to tell which habits lie on all of them
    /// is said so once: its days without a run then count as unknown.
    func statsReport(of routine: Routine, in range: DateRangeOptions, file: String) throws -> (report: StatsReport, runs: [StatsRun]) {
        let until = range.untilDate ?? .today()
        let filter = RunFilter(routine: routine.name, since: range.since, until: until.description)
        let store = try openForReading()
        let runs = try reading { try store?.statsRuns(filter, of: routine) ?? [] }
        let daysOff = try reading { try store?.daysOff(of: routine.name, from: range.sinceDate, through: until) ?? [] }
        var unconditional: Set<Int> = []
        do {
            unconditional = try PathExplorer(routine).nodesOnEveryWay()
        } catch {
            StandardError.write(visible: "routine: note: '\(file)' has too many ways to tell which habits are on all of them; days without a run count as unknown\n")
        }
        let report = StatsReport(
            routine: routine, runs: runs, since: range.sinceDate, until: until, unconditional: unconditional, daysOff: Set(daysOff.map(\.date)))
        return (report, runs)
    }
}
