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
        if date != nil, range.since != nil || range.until != nil { throw ValidationError("--date names one day: it cannot go with --since or --until") }
    }

    func run() throws {
        ignoreBrokenPipes()
        var filter = RunFilter(since: date ?? range.since, until: date ?? range.until, limit: limit)
        if let file { filter.routine = try routineName(file) }
        let store = try history.openForReading()
        var out = BufferedOutput(fd: 1)
        let none = "no runs recorded" + (filter.routine.map { " of '\($0)'" } ?? "") + "\n"
        if json || date != nil {
            let runs = try store?.runs(filter) ?? []
            if json {
                for run in runs { out.write(HistoryJSON.encode(run)) }
            } else if runs.isEmpty {
                out.write(visible: none)
            } else {
                // A day's runs read best in the order they happened.
                for (k, run) in runs.reversed().enumerated() { out.write(visible: (k > 0 ? "\n" : "") + RunLog.steps(of: run)) }
            }
        } else {
            let runs = try store?.runTotals(filter) ?? []
            if runs.isEmpty { out.write(visible: none) }
            for line in RunLog.table(runs, showRoutine: file == nil) { out.write(visible: line + "\n") }
        }
        out.flush()
    }

    /// The name a routine's runs are recorded under; a file whose name cannot be read is refused.
    private func routineName(_ path: String) throws -> String {
        let loaded = try input.load(path)
        if loaded.routine.name.isEmpty { _ = try input.loadValid(path) }
        return loaded.routine.name
    }
}

/// The text `routine log` prints.
enum RunLog {
    /// One line per run: date, weekday, start time, result, counts, values, time taken.
    static func table(_ runs: [(run: StoredRun, totals: RunTotals)], showRoutine: Bool) -> [String] {
        let rows = runs.map { run, totals -> [String] in
            let day = CalendarDate(run.date)
            var row = [run.date, String(day?.weekdayName.prefix(3) ?? ""), run.startedAt.clockTime(offset: run.utcOffset)]
            if showRoutine { row.append(run.routine) }
            row += [run.resultText, counts(totals), took(run)]
            return row
        }
        // Widths in Unicode scalars: near enough to columns for names, and cheap to count
        // over ten years of runs.
        let widths = rows.map { row in row.map { $0.unicodeScalars.count } }
        var column = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for row in widths { for (k, width) in row.enumerated() { column[k] = max(column[k], width) } }
        let spaces = String(repeating: " ", count: (column.max() ?? 0) + 2)
        return rows.indices.map { r in
            var line = ""
            for (k, cell) in rows[r].enumerated() {
                line += cell
                if k < rows[r].count - 1 { line += spaces.prefix(column[k] - widths[r][k] + 2) }
            }
            return line.trimmingTrailingSpaces()
        }
    }

    /// A run's heading and its steps, in order.
    static func steps(of run: StoredRun) -> String {
        let day = CalendarDate(run.date)?.weekdayName ?? ""
        var span = run.startedAt.clockTime(offset: run.utcOffset)
        if let ended = run.endedAt { span += " to " + ended.clockTime(offset: run.utcOffset) }
        var text = "\(run.routine) · \(day) \(run.date) · \(span) · \(run.resultText)\(run.reachedEnd ? " (reached end)" : "")\n"
        for step in run.steps {
            let d = step.decision
            var line = "  \(d.step). \(step.title)" + (d.result == .answered ? " " : ": ")
            switch d.result {
            case .answered: line += d.optionText ?? ""
            case .done:
                if let value = d.value {
                    line += NumberText.format(value) + (step.target.map { " of " + NumberText.format($0) } ?? "") + (step.unit.map { " " + $0 } ?? "")
                } else {
                    line += "done"
                }
            case .skipped: line += "skipped"
            case .notScheduled: line += "not scheduled"
            }
            if d.result != .notScheduled { line += " · " + DurationText.human(Int(step.seconds.rounded())) }
            text += line + "\n"
        }
        return text + "  " + counts(RunTotals(run.steps)) + (run.endedAt == nil ? "" : " · took \(took(run))") + "\n"
    }

    static func counts(_ totals: RunTotals) -> String {
        let values = totals.values.map { "\($0.node) \(NumberText.format($0.value))" + ($0.target.map { "/" + NumberText.format($0) } ?? "") }
        // A routine of many numeric habits would make a line per run unreadable: three values,
        // then how many more (`log --date` shows them all).
        let shown = values.count > 3 ? values.prefix(3) + ["\(values.count - 3) more values"] : values[...]
        return (["\(totals.done) done, \(totals.skipped) skipped, \(totals.notScheduled) not scheduled"] + shown).joined(separator: " · ")
    }

    static func took(_ run: StoredRun) -> String {
        guard let ended = run.endedAt else { return "" }
        return DurationText.human(Int(run.startedAt.seconds(to: ended).rounded()))
    }
}

