import ArgumentParser
import CSpawn
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
            sends one desktop notification through notify-send when something is, with Done, Skip and Snooze for \
            the next due habit (refused as 'routine done' refuses, in a second notification), and exits 69 when \
            notify-send is missing. --click left|right|middle marks the next step a bar shows done, skips it, or \
            opens the studio; with --format i3blocks, BLOCK_BUTTON does the same.
            """
    )

    @Argument(help: "The routine files (.rt, .yaml, .yml).", completion: .routineFiles)
    var files: [String] = []

    @Option(help: "The day to show (YYYY-MM-DD); default: today in local time.")
    var date: String?

    @Flag(help: "Every figure as one JSON object.")
    var json = false

    @Option(help: "table, waybar (JSON for waybar's custom module), i3blocks, tmux, or short (3/7 · Water): the bars show the next step.")
    var format: TodayFormat = .table

    @Flag(help: "Exit 1 while something due is neither done nor skipped.")
    var check = false

    @Flag(
        help:
            "Send a desktop notification (notify-send) when something due is not done, with Done, Skip and Snooze for the next habit; print nothing.")
    var notify = false

    @Option(help: "With --notify: how long Snooze waits before notifying again, such as 10m (default) or 1h.")
    var snooze: String?

    @Option(help: "Act on the next step a bar shows: left (done), right (skip) or middle (open the studio).")
    var click: BarClick?

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    /// What the options ask for, as a plain value: the quick reading of a command line
    /// (``QuickCommandLine``) makes the same without ArgumentParser's property wrappers.
    var today: Today {
        Today(
            files: files, date: date, json: json, format: format, check: check, notify: notify, snooze: snooze, click: click,
            history: NamedHistory(history: history.history), input: ChosenInput(inputFormat: input.inputFormat, color: input.color))
    }

    func validate() throws { try today.validate() }

    func run() throws { try today.run() }
}

/// `routine today` with its options read.
struct Today {
    var files: [String]
    var date: String?
    var json: Bool
    var format: TodayFormat
    var check: Bool
    var notify: Bool
    var snooze: String?
    var click: BarClick?
    var history: NamedHistory
    var input: ChosenInput

    func validate() throws {
        try DateRangeOptions.checkDate("--date", date)
        if json, format != .table { throw ValidationError("--json and --format \(format.rawValue) contradict each other: choose one") }
        if snooze != nil, !notify { throw ValidationError("--snooze goes with --notify") }
        if click != nil, notify || json || check { throw ValidationError("--click acts and prints nothing: no --notify, --json or --check") }
        _ = try snoozeSeconds()
    }

    func snoozeSeconds() throws -> Int {
        guard let snooze else { return 600 }
        switch DurationText.parse(Substring(snooze)) {
        case .success(let seconds): return seconds
        case .failure(let failure): throw ValidationError("--snooze '\(snooze)' is not a duration such as 10m: \(failure.reason)")
        }
    }

    /// The day of every routine asked for, read afresh: after an action, the next one.
    func day() throws -> TodayState {
        let day = date.flatMap(CalendarDate.init) ?? .today()
        let store = try history.openForReading()
        var paths = files
        if paths.isEmpty {
            paths = try store?.recentRoutinePaths(since: day.adding(days: -30).description) ?? []
            if paths.isEmpty {
                throw ValidationError("no routine was run in the last 30 days: name the routine files")
            }
        }
        var state = TodayState(date: day)
        for path in paths {
            let loaded = try input.loadValid(path)
            let facts = try store?.dayFacts(of: loaded.routine, on: day) ?? DayFacts(date: day)
            state.totals.days.append((loaded.routine, DayOverview.of(loaded.routine, facts: facts)))
            state.loaded.append((path, loaded))
        }
        return state
    }

    func run() throws {
        ignoreBrokenPipes()
        if notify { return try Notifier(program: try Notifier.find(), snooze: try snoozeSeconds(), command: self).run() }
        // i3blocks runs the block's command again on a click, with the button in BLOCK_BUTTON.
        let button = format == .i3blocks ? getenv("BLOCK_BUTTON").flatMap { BarClick(i3blocks: String(cString: $0)) } : nil
        if let pressed = click ?? button {
            let refused = try act(pressed, on: try day())
            if click != nil { if refused { throw Exit.errors } else { return } }
        }
        let totals = try day().totals
        var out = BufferedOutput(fd: 1)
        if json {
            out.write(totals.json(date: totals.days.first?.overview.date ?? .today()))
        } else {
            switch format {
            case .table: out.write(TodayOutput.table(totals))
            case .waybar: out.write(TodayOutput.waybar(totals))
            case .i3blocks: out.write(TodayOutput.i3blocks(totals))
            case .tmux: out.write(TodayOutput.tmux(totals) + "\n")
            case .short: out.write(TodayOutput.short(totals) + "\n")
            }
        }
        out.flush()
        if check, totals.pending > 0 {
            OutputFailure.resultSoFar = Exit.errors.rawValue
            throw Exit.errors
        }
    }

    /// A bar's click on the next step; returns whether it was refused (said on standard error).
    func act(_ pressed: BarClick, on state: TodayState) throws -> Bool {
        guard let next = state.totals.next else {
            StandardError.write("routine: nothing is due: there is no next step to act on\n")
            return true
        }
        let path = state.loaded[next.day].path
        guard pressed != .middle, case .habit(let node) = next.step else {
            // A question is answered in a run: the studio offers it.
            return !StudioLauncher.open(path, history: history.history)
        }
        if let refusal = try state.log(node, day: next.day, skip: pressed == .right, history: history) {
            report(refusal, colors: input.colorsOnStandardError)
            return true
        }
        return false
    }
}

/// A mouse button on a bar's module.
enum BarClick: String, CaseIterable, ExpressibleByArgument {
    case left, right, middle

    /// i3blocks' BLOCK_BUTTON: 1 left, 2 middle, 3 right; nil for the wheel and the rest.
    init?(i3blocks button: String) {
        switch button {
        case "1": self = .left
        case "2": self = .middle
        case "3": self = .right
        default: return nil
        }
    }
}

/// The routines of one `today`, their files and their day.
struct TodayState {
    var date: CalendarDate
    var totals = DayTotals()
    var loaded: [(path: String, routine: LoadedRoutine)] = []

    /// Records habit `node` of routine `day` done (a numeric habit: its target) or skipped, by the
    /// rules of `routine done`; returns the refusal, nothing written.
    func log(_ node: Int, day: Int, skip: Bool, history: some HistoryChoice) throws -> Diagnostic? {
        let (path, loaded) = loaded[day]
        let routine = loaded.routine
        let request = LogRequest(
            id: routine.id(of: node), skip: skip, value: skip ? nil : routine.target(of: node)?.amount, seconds: nil, force: false)
        let store = try LogArguments.openStore(history)
        switch try store.log(request, of: routine, on: date, path: absolutePath(path), sourceHash: sourceHash(loaded.file.bytes)) {
        case .failure(let refusal): return refusal.diagnostic
        case .success: return nil
        }
    }
}

/// Starts `routine studio FILE --open` without waiting for it, for a bar's middle click: apart
/// from the click's command (its own session, output nowhere, none of the bar's descriptors),
/// so the bar that waits for the click's command does not wait for the studio.
/// The studio shows the history the bar counts: `--history` is passed on when given. Nobody
/// would stop it: it ends by itself once no page has been open for 10 minutes.
enum StudioLauncher {
    static func open(_ path: String, history: String?) -> Bool {
        let program = RemindCommand.executablePath()
        let words: [String] =
            [program, "studio", absolutePath(path), "--open", "--exit-when-idle"] + (history.map { ["--history", absolutePath($0)] } ?? [])
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard routine_spawn_detached(program, &argv) > 0 else {
            StandardError.write(visible: "routine: error: cannot start the studio: \(String(cString: strerror(errno)))\n")
            return false
        }
        return true
    }
}
