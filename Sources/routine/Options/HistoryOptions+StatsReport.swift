import RoutineHistory
import RoutineKit

extension HistoryOptions {
    /// The statistics of `routine` over `range` (default: the first recorded run up to today),
    /// from this history, and the runs they were computed from; shared by `stats` and
    /// `graph --stats`. A routine with too many ways to tell which habits lie on all of them
    /// is said so once: its days without a run then count as unknown.
    func statsReport(of routine: Routine, in range: DateRangeOptions, file: String) throws -> (report: StatsReport, runs: [StatsRun]) {
        let store = try openForReading()
        let loaded = try reading { try StatsLoading(of: routine, in: range.window, store: store) }
        if loaded.tooManyWays {
            StandardError.write(
                visible: "routine: note: '\(file)' has too many ways to tell which habits are on all of them; days without a run count as unknown\n")
        }
        return (loaded.report, loaded.runs)
    }
}
