import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "What is due today and what is done, for one routine or several.",
        discussion: """
            Due: scheduled today, and on every way through the routine or already reached by today's run; a \
            habit behind a question not answered yet is 'maybe'. Runs and logs (routine done) both count. \
            Without FILE, the routines run in the last 30 days, from the paths the history recorded. Exit 0 \
            unless something fails; --check exits 1 while something due is neither done nor skipped; --notify \
            sends one desktop notification through notify-send when something is, and exits 69 when notify-send \
            is missing.
            """
    )

    @Argument(help: "The routine files (.rt, .yaml, .yml).", completion: .routineFiles)
    var files: [String] = []

    @Option(help: "The day to show (YYYY-MM-DD); default: today in local time.")
    var date: String?

    @Flag(help: "Every figure as one JSON object.")
    var json = false

    @Option(help: "table, waybar (JSON for waybar's custom module), i3blocks, or short (3/7).")
    var format: TodayFormat = .table

    @Flag(help: "Exit 1 while something due is neither done nor skipped.")
    var check = false

    @Flag(help: "Send a desktop notification (notify-send) when something due is not done; print nothing.")
    var notify = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        try DateRangeOptions.checkDates([("--date", date)])
        if json, format != .table { throw ValidationError("--json and --format \(format.rawValue) contradict each other: choose one") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let notifier = notify ? try Notifier.find() : nil
        let day = date.flatMap(CalendarDate.init) ?? .today()
        let store = try history.openForReading()
        var paths = files
        if paths.isEmpty {
            paths = try store?.recentRoutinePaths(since: day.adding(days: -30).description) ?? []
            if paths.isEmpty {
                throw ValidationError("no routine was run in the last 30 days: name the routine files")
            }
        }
        var totals = DayTotals()
        for path in paths {
            let routine = try input.loadValid(path).routine
            let facts = try store?.dayFacts(of: routine, on: day) ?? DayFacts(date: day)
            totals.days.append((routine, DayOverview.of(routine, facts: facts)))
        }
        if let notifier {
            if totals.pending > 0 { try notifier.send(totals) }
            return
        }
        var out = BufferedOutput(fd: 1)
        if json {
            out.write(totals.json(date: day))
        } else {
            switch format {
            case .table: out.write(TodayOutput.table(totals))
            case .waybar: out.write(TodayOutput.waybar(totals))
            case .i3blocks: out.write(TodayOutput.i3blocks(totals))
            case .short: out.write(TodayOutput.short(totals) + "\n")
            }
        }
        out.flush()
        if check, totals.pending > 0 {
            OutputFailure.resultSoFar = 1
            throw Exit.errors
        }
    }
}

/// One desktop notification through `notify-send` (libnotify).
struct Notifier {
    let program: String

    /// `notify-send` on PATH; without it, says so and exits 69.
    static func find() throws -> Notifier {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/notify-send"
            if access(candidate, X_OK) == 0 { return Notifier(program: candidate) }
        }
        report(.missingNotifier(), colors: Terminal.wantsColor(.auto, fd: 2))
        throw ExitCode(69)
    }

    func send(_ totals: DayTotals) throws {
        let left = totals.pending
        let summary = "\(left) habit\(left == 1 ? "" : "s") still due today (\(totals.done) of \(totals.due) done)"
        let body = TodayOutput.pendingLines(totals).joined(separator: "\n")
        // notify-send reads its body as markup.
        let arguments = [program, "--app-name=routine", "--icon=appointment-soon", summary, TodayOutput.pango(body)]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, program, nil, nil, &argv, environ) == 0 else {
            report(.missingNotifier(), colors: Terminal.wantsColor(.auto, fd: 2))
            throw ExitCode(69)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if status != 0 {
            StandardError.write("routine: error: notify-send failed (status \(status >> 8)); is a desktop session running?\n")
            throw Exit.errors
        }
    }
}
