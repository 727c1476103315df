import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Streaks, completion rates, strength scores and a calendar of a routine's recorded runs.",
        discussion: """
            Each habit's day is done, skipped, not-due, missed or unknown, by the rules in grammar.md \
            ("Day status"): a habit on a branch the answers did not take was not due, and a day without \
            a run is missed only for a habit on every way through the routine. Figures are computed from \
            the history when asked; nothing derived is stored. Today counts once it has a run.
            """
    )

    @Argument(help: "The routine (.rt, .yaml, .yml): its runs are those recorded under its name.", completion: .routineFiles)
    var file: String

    /// Default: from the first recorded run up to today.
    @OptionGroup var range: DateRangeOptions

    @Option(help: "One habit's page: its calendar of statuses, streaks, and its values over time.", completion: .habitIDs)
    var habit: String?

    @Option(help: "Show how each due day moved this habit's strength score.", completion: .habitIDs)
    var explain: String?

    @Option(help: "One question's page: each answer chosen, by week, and the habits after it on the days of each answer.", completion: .questionIDs)
    var question: String?

    @Option(help: "Weeks in the calendar; default: as many as the terminal is wide.")
    var weeks: Int?

    @Flag(help: "Every figure, per habit and per day, as one JSON object.")
    var json = false

    @Flag(help: "One row per habit and day: date, habit, status, value, seconds.")
    var csv = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv cannot be used together") }
        if question != nil, csv || habit != nil || explain != nil { throw ValidationError("--question goes alone, or with --json") }
        if let weeks, weeks < 1 { throw ValidationError("--weeks must be at least 1") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let routine = try input.loadValid(file).routine
        let byID = routine.indexByID()
        for (flag, id, wantsQuestion) in [("--habit", habit, false), ("--explain", explain, false), ("--question", question, true)] {
            guard let id else { continue }
            guard let index = byID[id], routine.isQuestion(index) == wantsQuestion else {
                let habits = (0..<routine.nodeCount).filter { !routine.isQuestion($0) }.map(routine.id(of:))
                let message =
                    wantsQuestion
                    ? Diagnostic.notAQuestion(id, of: routine).message
                    : "'\(id)' is not a habit of '\(routine.name)'" + nameHint(for: id, among: habits, kind: "habits")
                StandardError.write(visible: "Error: \(flag): \(message)\nUsage: \(RoutineCommand.usageString(for: Self.self))\n")
                throw Exit.usage
            }
        }
        let (report, runs) = try history.statsReport(of: routine, in: range, file: file)
        let until = report.until
        let since = range.sinceDate
        var out = BufferedOutput(fd: 1)
        defer { out.flush() }
        let questionStats = question.flatMap { byID[$0] }.map { QuestionStats($0, in: report) }
        if json {
            if let questionStats {
                out.write(StatsJSON.encode(questionStats).text + "\n")
            } else {
                StatsJSON.write(report) { out.write($0) }
                out.write("\n")
            }
            return
        }
        if csv {
            StatsJSON.csv(report) { out.write($0) }
            return
        }
        let lastDay = report.untilIsOpen ? until.adding(days: -1) : until
        let firstRun = runs.map(\.date).min() ?? report.first
        var map = HeatMap(
            palette: palette, weeks: weeks ?? HeatMap.weeks(fitting: Terminal.columns(fd: 1), from: max(report.first, firstRun), to: lastDay))
        map.daysOff = report.daysOff
        if let id = explain, let stats = report.habits.first(where: { $0.id == id }) {
            out.write(StatsText.explain(stats))
            return
        }
        if runs.isEmpty {
            out.write(visible: "no runs of '\(routine.name)' recorded" + (since.map { " from \($0)" } ?? "") + " up to \(until)\n")
            return
        }
        out.write(StatsText.heading(report, recordedDays: StatsLoading.recordedDays(runs)))
        if let questionStats {
            out.write(StatsText.questionPage(questionStats))
            return
        }
        if let id = habit, let stats = report.habits.first(where: { $0.id == id }) {
            let byDate = Dictionary(uniqueKeysWithValues: stats.days.map { ($0.date, $0.status) })
            out.write(StatsText.habitPage(stats) + "\n")
            out.write(map.render(last: lastDay) { byDate[$0] })
            return
        }
        out.write(StatsText.table(report) + "\n")
        let questionRows = StatsText.questionRows(report)
        if !questionRows.isEmpty { out.write(questionRows + "\n") }
        out.write(map.render(last: lastDay) { HeatMap.level(share: report.share(on: $0)) })
    }

    /// Colour as the terminal allows: 24-bit where COLORTERM says so, else 256 colours;
    /// characters under NO_COLOR, TERM=dumb or a pipe.
    private var palette: HeatMap.Palette {
        guard Terminal.wantsColor(input.color, fd: 1) else { return .characters }
        let colorTerm = getenv("COLORTERM").map { String(cString: $0) } ?? ""
        return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .colors256
    }
}
