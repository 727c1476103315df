import Foundation
import Testing

/// Drives `routine run` in a real pseudo-terminal through tmux and reads the screen.
final class TmuxSession {
    let socket = "routine-test-\(UUID().uuidString.prefix(8))"
    let name = "t"

    init(command: String, environment: [String: String] = [:]) throws {
        // Recorded runs go to a history of the test's own, never to the real home folder.
        let isolation = ["HOME": testHome.path, "ROUTINE_HISTORY": freshHistoryPath()]
        let exports = isolation.merging(environment) { $1 }.map { "export \($0.key)='\($0.value)'; " }.joined()
        // Keep the pane open after the command so the summary and exit code can be read; the
        // trap keeps Ctrl-C from ending the shell too (a trapped signal is reset in children).
        let shell = "trap : INT; unset NO_COLOR; \(exports)\(command); echo \"[exit=$?]\"; sleep 60"
        try tmux(["new-session", "-d", "-x", "120", "-y", "50", "-s", name, "sh", "-c", shell], capture: false)
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Runs tmux through the shell: `popen` waits for the client alone, while the server it
    /// forks lives on detached from every pipe of ours.
    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let quoted = (["tmux", "-L", socket] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = quoted.joined(separator: " ") + " </dev/null 2>/dev/null" + (capture ? "" : " >/dev/null")
        guard let pipe = popen(command, "r") else { throw CocoaError(.fileReadUnknown) }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        lastStatus = pclose(pipe)
        return String(decoding: output, as: UTF8.self)
    }

    /// The wait status of the last tmux client.
    private(set) var lastStatus: Int32 = 0

    /// Sends `keys` in one write: the program reads them at once, as keys unless they look
    /// like a paste.
    /// A client that could not reach a busy server is tried again.
    func send(_ keys: String...) throws { try sendKeys(keys) }
    func send(_ keys: [String]) throws { try sendKeys(keys) }

    private func sendKeys(_ keys: [String]) throws {
        for _ in 0..<3 {
            try tmux(["send-keys", "-t", name] + keys)
            if lastStatus == 0 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("tmux could not send \(keys)")
    }

    /// From the start of routines/morning.rt to its question, its menu drawn: the first two
    /// habits done.
    func toTheQuestion() throws {
        try waitFor("done? >")
        try press("d")
        try waitFor("Step 2 · Morning")
        try press("d")
        try waitFor("  > 1. Great!")
    }

    /// Presses each key alone: sent once the program has read the one before it, and more
    /// than 50 ms after it, so that no two keys arrive as a burst.
    func press(_ keys: String...) throws {
        for key in keys {
            try sendKeys([key])
            try waitUntilRead()
        }
    }

    /// Presses each key alone and waits until the screen shows what it brings, in turn: a
    /// scripted stretch of a session as one table. Returns the last screen.
    @discardableResult
    func walk(_ steps: [(press: String, until: String)]) throws -> String {
        var screen = ""
        for step in steps {
            try press(step.press)
            screen = try waitFor(step.until)
        }
        return screen
    }

    /// Types `text` (read as one burst), waits until the screen shows `shown`, then presses
    /// Enter alone.
    func enter(_ text: String, shown: String) throws {
        try sendKeys(["-l", text])
        try waitFor(shown)
        try waitUntilRead()
        try press("Enter")
    }

    /// Pastes `bytes` as the terminal would: between paste brackets when the program asked for
    /// them and `bracketed`, else as the bytes alone, all written at once.
    func paste(_ bytes: [UInt8], bracketed: Bool) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("routine-paste-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try tmux(["load-buffer", "-b", "p", file.path], capture: false)
        try tmux(["paste-buffer", "-d", "-r", "-b", "p", "-t", name] + (bracketed ? ["-p"] : []), capture: false)
        try waitUntilRead()
    }

    /// Waits until the program has read every byte sent to its terminal (the terminal's input
    /// queue is empty), then 60 ms more: a key sent next is a read of its own.
    func waitUntilRead() throws {
        let tty = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let fd = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(15)
        var queued: Int32 = 1
        while Date() < deadline {
            if ioctl(fd, UInt(FIONREAD), &queued) != 0 { queued = 0 }
            if queued == 0 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        if queued > 0 { Issue.record("the program never read \(queued) bytes sent to it") }
        Thread.sleep(forTimeInterval: 0.06)
    }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name, "-S", "-200"]) }

    /// The whole scroll-back, wrapped lines joined.
    func everything() throws -> String { try tmux(["capture-pane", "-p", "-J", "-t", name, "-S", "-"]) }

    /// Resizes the window to each size in turn, with time between for the program to redraw.
    func resize(through sizes: [(columns: Int, rows: Int)]) throws {
        for (columns, rows) in sizes {
            try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
            Thread.sleep(forTimeInterval: 0.3)
        }
    }

    /// Waits until the screen shows `text`, for up to 15 seconds.
    @discardableResult
    func waitFor(_ text: String) throws -> String {
        let deadline = Date().addingTimeInterval(15)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("screen never showed '\(text)'; it shows:\n\(last)")
        return last
    }
}

@Suite(.serialized)
struct InteractiveRunTests {
    var command: String { "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06" }

    @Test func walksThroughWithBackAndQuit() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color"])
        try session.waitFor("done? >")
        let first = try session.screen()
        #expect(first.contains("Morning · Monday 2020-01-06"))
        #expect(first.contains("Step 1 · Morning"))
        #expect(first.contains("Drink a glass of water"))
        try session.send("Enter")
        try session.waitFor("Step 2 · Morning")
        try session.send("Enter")
        var screen = try session.waitFor("answer (1-5) >")
        #expect(screen.contains("1. Great!") && screen.contains("5. Tired"))
        try session.enter("seven", shown: "answer (1-5) > seven")
        screen = try session.waitFor("'seven' is not an option: choose 1 to 5")
        // A refused answer repeats only the input line, not the whole step.
        #expect(screen.components(separatedBy: "Step 3 · Morning").count == 2)
        try session.enter("b", shown: "answer (1-5) > b")
        screen = try session.waitFor("back to step 2: Stretch")
        try session.send("s")  // a single key: it skips at once
        try session.waitFor("answer (1-5) >")
        try session.enter("not", shown: "answer (1-5) > not")  // a unique prefix of "Not so good"
        try session.waitFor("Write three lines")
        screen = try session.screen()
        #expect(screen.contains("What went well yesterday?"))
        try session.press("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("Morning: quit"))
        #expect(screen.contains("1 done · 1 skipped · 0 not scheduled"))
    }

    @Test func ctrlCEndsCleanlyWithTheSummary() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color"])
        try session.waitFor("done? >")
        try session.send("C-c")
        let screen = try session.waitFor("[exit=130]")
        #expect(screen.contains("Morning: interrupted"))
        #expect(!screen.contains("Fatal error"))
    }

    @Test func ctrlDEndsCleanlyWithTheSummary() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color"])
        try session.waitFor("done? >")
        let screen = try session.walk([("Enter", "Step 2 · Morning"), ("C-d", "[exit=0]")])
        #expect(screen.contains("Morning: quit"))
        #expect(screen.contains("1 done · 0 skipped · 0 not scheduled"))
    }

    /// A routine whose texts carry escape sequences cannot retitle the window, clear the screen
    /// or reach the clipboard: the screen shows them as visible escapes.
    @Test func aHostileRoutineCannotDriveTheTerminal() throws {
        let hostile = "Tests/RoutineKitTests/Fixtures/fuzz/hostile-text.rt"
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && '\(routineBinary.path)' run \(hostile) --date 2020-01-06 --no-history",
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        try session.waitFor("done? >")
        try session.send("Enter")
        let screen = try session.waitFor("answer (1-2) >")
        #expect(screen.contains("M\\u{1B}]0;title\\u{7} · Monday 2020-01-06"), "the header survives: nothing cleared the screen")
        #expect(screen.contains("A \\u{1B}[2J \\u{202E}x"))
        #expect(screen.contains("1. \\u{1B}]52;c;aGk=\\u{7}"))
        let title = try session.tmux(["display-message", "-p", "-t", session.name, "#{pane_title}"])
        #expect(!title.contains("title"), "the window title was set to '\(title)'")
        try session.enter("q", shown: "answer (1-2) > q")
        try session.waitFor("[exit=0]")
    }

    /// `capture-pane -e` keeps the escape sequences of colour and bold, so their absence shows.
    @Test(arguments: [["NO_COLOR": "1", "TERM": "xterm"], ["TERM": "dumb"], ["TERM": "xterm"]])
    func colourOnlyWhenTheTerminalAllowsIt(_ environment: [String: String]) throws {
        let session = try TmuxSession(command: command, environment: environment)
        try session.waitFor("done? >")
        let styled = try session.tmux(["capture-pane", "-p", "-e", "-t", session.name])
        let colourExpected = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        #expect(styled.contains("\u{1B}[") == colourExpected)
        try session.press("q")
        if environment["TERM"] == "dumb" { try session.press("Enter") }  // plain lines wait for Enter
        try session.waitFor("[exit=0]")
    }
}

@Suite(.serialized)
struct InteractiveResumeTests {
    @Test func anUnfinishedRunIsOfferedAndResumed() throws {
        let history = freshHistoryPath()
        let first = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2020-01-06"], stdin: "\n\n")
        #expect(first.status == 3)
        let command = "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06"
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm", "ROUTINE_HISTORY": history])
        try session.waitFor("Resume the Monday 2020-01-06 run of 'Morning' at step 3 (How are you feeling today?)? [Y/n]")
        try session.enter("maybe", shown: "[Y/n] maybe")
        try session.waitFor("y: resume where it stopped · n: start a new run (the old one is kept) [Y/n]")
        try session.send("Enter")
        let screen = try session.waitFor("answer (1-5) >")
        #expect(screen.contains("resumed at step 3: 2 steps were recorded from "))
        #expect(screen.contains("Step 3 · Morning"))
        try session.enter("q", shown: "answer (1-5) > q")
        try session.waitFor("[exit=0]")
        let log = try execute(["log", "--history", history, "--json"])
        let lines = log.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""result":"quit""#) == true)
    }

    @Test func declinedResumeStartsANewRun() throws {
        let history = freshHistoryPath()
        _ = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2020-01-06"], stdin: "\n")
        let command = "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06"
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm", "ROUTINE_HISTORY": history])
        try session.waitFor("at step 2 (Stretch)? [Y/n]")
        try session.press("n")  // a single key, as at every other yes-or-no question
        // The new run passes over the water the declined run did, and asks from the stretch.
        let screen = try session.waitFor("Step 2 · Morning")
        #expect(screen.contains("1. Drink a glass of water: done at ") && screen.contains(" (in a run)"))
        try session.press("q")
        try session.waitFor("[exit=0]")
        let log = try execute(["log", "--history", history, "--json"])
        #expect(log.stdout.split(separator: "\n").count == 2)
    }
}
