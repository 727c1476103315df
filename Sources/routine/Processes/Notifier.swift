import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// `routine today --notify`: one desktop notification through `notify-send` (libnotify 0.8)
/// while something is due, with Done, Skip and Snooze for the next due habit. An action goes
/// through the rules of `routine done`; a refusal comes back as a second notification.
struct Notifier {
    let program: String
    /// How long Snooze waits.
    let snooze: Int
    let command: Today
    /// Snoozes in a row before giving up: a day's worth of the shortest.
    static let mostSnoozes = 288

    /// `notify-send` on PATH; without it, says so and exits 69.
    static func find() throws -> String {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/notify-send"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        report(.missingNotifier(), colors: Terminal.wantsColor(.auto, fd: 2))
        throw Exit.programMissing
    }

    func run() throws {
        for _ in 0...Self.mostSnoozes {
            let state = try command.day()
            let totals = state.totals
            guard totals.pending > 0, let next = totals.nextHabit else { return }
            let routine = state.totals.days[next.day].routine
            let shell = ShellHint(path: state.loaded[next.day].path, id: routine.id(of: next.node), target: routine.target(of: next.node))
            let title = Sanitizer.visible(routine.title(of: next.node))
            let left = totals.pending
            let summary = "\(left) habit\(left == 1 ? "" : "s") still due today (\(totals.done) of \(totals.due) done)"
            var body = TodayOutput.pendingLines(totals)
            if let amount = shell.amount { body.append("Done records \(amount); another amount: \(shell.done(value: "VALUE"))") }
            let actions = [("done", "Done: " + title), ("skip", "Skip"), ("snooze", "Snooze " + DurationText.format(snooze))]
            let sent = try send(summary, body, actions: actions)
            if sent.unsupported {
                // The server showed it without buttons: say how to act from the shell instead.
                let lines = body + ["from the shell:", shell.done(value: shell.amount.map { _ in shell.value } ?? nil), shell.skip]
                _ = try send(summary, lines, actions: [], replacing: sent.id)
                return
            }
            switch sent.action {
            case "done", "skip":
                if let refusal = try state.log(next.node, day: next.day, skip: sent.action == "skip", history: command.history) {
                    _ = try send("not recorded: " + title, [refusal.message] + refusal.notes.map(\.message), actions: [])
                }
                return
            case "snooze":
                var rest = UInt32(snooze)
                while rest > 0 { rest = sleep(rest) }
            default:
                return
            }
        }
    }

    /// What notify-send said: the notification's ID, the action chosen, and whether the server
    /// refused actions.
    struct Sent {
        var id: String?
        var action: String?
        var unsupported = false
    }

    /// One notification; with actions, waits until one is chosen or the notification closes.
    func send(_ summary: String, _ body: [String], actions: [(String, String)], replacing id: String? = nil) throws -> Sent {
        var arguments = ["--app-name=routine", "--icon=appointment-soon"]
        if let id { arguments.append("--replace-id=" + id) }
        if !actions.isEmpty { arguments += ["--print-id", "--wait"] + actions.map { "--action=" + $0.0 + "=" + $0.1 } }
        // notify-send reads its body as markup; `--` ends its options, so that a routine named
        // `-?` or `--urgency=low` is text.
        arguments += ["--", summary, TodayOutput.pango(body.joined(separator: "\n"))]
        guard let result = ChildProcess.run(program, arguments) else {
            report(.missingNotifier(), colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.programMissing
        }
        if result.status != 0 {
            StandardError.write("routine: error: notify-send failed (status \(result.status)); is a desktop session running?\n")
            throw Exit.errors
        }
        var sent = Sent()
        var lines = result.outputText.split(separator: "\n").map(String.init)[...]
        if !actions.isEmpty, let first = lines.first, UInt32(first) != nil {
            sent.id = first
            lines = lines.dropFirst()
        }
        sent.action = lines.first
        sent.unsupported = result.errorText.contains("Actions are not supported")
        return sent
    }
}

/// The shell commands that do what a notification's buttons do.
struct ShellHint {
    let path: String
    let id: String
    let target: TargetValue?

    /// "20 reps", for a numeric habit.
    var amount: String? { target.map { NumberText.format($0.amount) + ($0.unit.map { " " + $0 } ?? "") } }
    var value: String? { target.map { NumberText.format($0.amount) } }

    func done(value: String?) -> String {
        "routine done " + Self.word(absolutePath(path)) + " " + Self.word(id) + (value.map { " " + $0 } ?? "")
    }

    var skip: String { "routine done " + Self.word(absolutePath(path)) + " " + Self.word(id) + " --skip" }

    /// `text` as one shell word: bare when it is only safe characters, else in single quotes.
    static func word(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "/._-+:,@".unicodeScalars.contains($0)
            }
        return safe ? text : "'" + Sanitizer.visible(text).replacing("'", with: "'\\''") + "'"
    }
}
