import ArgumentParser
import RoutineHistory
import RoutineKit

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List the recorded runs, newest first, or the steps of one day's runs.",
        discussion: """
            Without FILE, the runs of every routine; with FILE, the runs of that routine (by its name, \
            wherever its file is). --date lists the steps of that day's runs, in order, with the answers \
            and values. --json prints one run per line, with its steps, as 'history export' writes them.
            """
    )

    @Argument(help: "Only the runs of this routine (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String?

    @OptionGroup var range: DateRangeOptions

    @Option(help: "At most this many runs.")
    var limit: Int?

    @Option(help: "The steps of this day's runs (YYYY-MM-DD).")
    var date: String?

    @Flag(help: "One JSON object per run and line, with its steps.")
    var json = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        try DateRangeOptions.checkDates([("--date", date)])
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if date != nil, range.since != nil || range.until != nil {
            throw ValidationError("--date names one day: it cannot go with --since or --until")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        var filter = RunFilter(since: date ?? range.since, until: date ?? range.until, limit: limit)
        var routine: Routine?
        if let file {
            routine = try loadedRoutine(file)
            filter.routine = routine?.name
        }
        let store = try history.openForReading()
        var out = BufferedOutput(fd: 1)
        let none = "no runs recorded" + (filter.routine.map { " of '\($0)'" } ?? "") + "\n"
        if let day = date.flatMap(CalendarDate.init) {
            // One day: the same reading as the studio's day view.
            let record = try history.reading { try store?.dayRecord(of: filter.routine, on: day, limit: limit) } ?? DayRecord(date: day)
            if json {
                for run in record.runs { out.write(HistoryJSON.encode(run)) }
            } else {
                let offText = RunLog.daysOff(record.daysOff.reversed(), showRoutine: file == nil)
                if record.runs.isEmpty {
                    out.write(visible: offText.isEmpty ? none : offText)
                } else {
                    out.write(visible: offText.isEmpty ? "" : offText + "\n")
                    // A day's runs read best in the order they happened.
                    for (k, run) in record.runs.reversed().enumerated() {
                        out.write(visible: (k > 0 ? "\n" : "") + RunLog.steps(of: run, routine: routine))
                    }
                }
            }
        } else if json {
            let runs = try history.reading { try store?.runs(filter) ?? [] }
            for run in runs { out.write(HistoryJSON.encode(run)) }
        } else {
            let daysOff =
                try store?.daysOff(
                    of: filter.routine, from: filter.since.flatMap(CalendarDate.init), through: filter.until.flatMap(CalendarDate.init)) ?? []
            let offText = RunLog.daysOff(daysOff.reversed(), showRoutine: file == nil)
            let runs = try history.reading { try store?.runTotals(filter) ?? [] }
            if runs.isEmpty { out.write(visible: none) }
            RunLog.table(runs, showRoutine: file == nil, routine: routine).write(to: &out)
            if !offText.isEmpty { out.write(visible: "\n" + offText) }
        }
        out.flush()
    }

    /// The routine whose runs are listed, by the name they are recorded under; a file whose
    /// name cannot be read is refused.
    private func loadedRoutine(_ path: String) throws -> Routine {
        let loaded = try input.load(path)
        if loaded.routine.name.isEmpty { _ = try input.loadValid(path) }
        return loaded.routine
    }
}
