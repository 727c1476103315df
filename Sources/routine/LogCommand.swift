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

    @Argument(help: "Only the runs of this routine (.rt, .yaml, .yml).", completion: .file(extensions: ["rt", "yaml", "yml"]))
    var file: String?

    @Option(help: "Only runs on or after this day (YYYY-MM-DD).")
    var since: String?

    @Option(help: "Only runs on or before this day (YYYY-MM-DD).")
    var until: String?

    @Option(help: "At most this many runs.")
    var limit: Int?

    @Option(help: "The steps of this day's runs (YYYY-MM-DD).")
    var date: String?

    @Flag(help: "One JSON object per run and line, with its steps.")
    var json = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until), ("--date", date)] {
            if let value, CalendarDate(value) == nil {
                throw ValidationError("\(name) '\(value)' is not a date: use YYYY-MM-DD, such as 2026-11-23")
            }
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if date != nil, since != nil || until != nil { throw ValidationError("--date names one day: it cannot go with --since or --until") }
    }

    func run() throws {
        ignoreBrokenPipes()
        var filter = RunFilter(since: date ?? since, until: date ?? until, limit: limit)
        if let file { filter.routine = try routineName(file) }
        let runs = try history.openForReading()?.runs(filter) ?? []
        var out = BufferedOutput(fd: 1)
        if json {
            for run in runs { out.write(HistoryJSON.encode(run)) }
        } else if runs.isEmpty {
            out.write("no runs recorded" + (filter.routine.map { " of '\($0)'" } ?? "") + "\n")
        } else if date != nil {
            // A day's runs read best in the order they happened.
            for (k, run) in runs.reversed().enumerated() { out.write((k > 0 ? "\n" : "") + RunLog.steps(of: run)) }
        } else {
            for line in RunLog.table(runs, showRoutine: file == nil) { out.write(line + "\n") }
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
    static func table(_ runs: [StoredRun], showRoutine: Bool) -> [String] {
        let rows = runs.map { run -> [String] in
            let day = CalendarDate(run.date)
            var row = [run.date, String(day?.weekdayName.prefix(3) ?? ""), run.startedAt.clockTime(offset: run.utcOffset)]
            if showRoutine { row.append(run.routine) }
            row += [run.resultText, counts(run), took(run)]
            return row
        }
        var widths = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
        return rows.map { row in
            row.enumerated().map { k, cell in k == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[k] - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces()
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
        return text + "  " + counts(run) + (run.endedAt == nil ? "" : " · took \(took(run))") + "\n"
    }

    static func counts(_ run: StoredRun) -> String {
        var done = 0, skipped = 0, notScheduled = 0
        var values: [String] = []
        for step in run.steps {
            switch step.decision.result {
            case .done:
                done += 1
                if let value = step.decision.value {
                    values.append("\(step.decision.node) \(NumberText.format(value))" + (step.target.map { "/" + NumberText.format($0) } ?? ""))
                }
            case .skipped: skipped += 1
            case .notScheduled: notScheduled += 1
            case .answered: break
            }
        }
        return (["\(done) done, \(skipped) skipped, \(notScheduled) not scheduled"] + values).joined(separator: " · ")
    }

    static func took(_ run: StoredRun) -> String {
        guard let ended = run.endedAt else { return "" }
        return DurationText.human(Int(run.startedAt.seconds(to: ended).rounded()))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
