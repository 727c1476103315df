import Foundation
import Testing

/// What reaches the runner from a terminal that is not a person typing: pastes, bursts of
/// bytes, resizes, and the terminal closing. None of it decides anything but an interruption.
@Suite(.serialized)
struct TerminalInputTests {
    static let run = "'\(routineBinary.path)' run routines/morning.rt --date 2020-01-06"

    /// A session at the first habit, recording into `history`.
    private func atTheFirstHabit(history: String = freshHistoryPath(), then shell: String = "") throws -> TmuxSession {
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && \(Self.run)\(shell)",
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1", "ROUTINE_HISTORY": history])
        try session.waitFor("done? >")
        return session
    }

    /// The steps recorded in the only run of `history`, and its result.
    private func recorded(_ history: String) throws -> (steps: Int, result: String) {
        let log = try execute(["log", "--history", history, "--json"])
        let line = log.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let result = line.firstMatch(of: /"result":"(\w+)"/).map { String($0.1) } ?? "none"
        return (line.components(separatedBy: #""step":"#).count - 1, result)
    }

    struct Paste: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        /// What the line shows once it is pasted: its printable characters.
        let typed: String
        var testDescription: String { name }
    }

    static let pastes: [Paste] = [
        Paste(name: "ab, Ctrl-U, d", bytes: Array("ab\u{15}d".utf8), typed: "abd"),
        Paste(name: "ab, Ctrl-W, d", bytes: Array("ab\u{17}d".utf8), typed: "abd"),
        Paste(name: "d, Escape", bytes: Array("d\u{1B}".utf8), typed: "d"),
        Paste(name: "d, Enter, s, Ctrl-C", bytes: Array("d\rs\u{3}".utf8), typed: "ds"),
    ]

    /// A paste is typed text, with or without the terminal's paste brackets: its control
    /// characters dropped, Enter among them, and nothing decided until Enter is pressed.
    @Test(arguments: pastes, [false, true])
    func aPasteDecidesNothing(_ paste: Paste, bracketed: Bool) throws {
        let history = freshHistoryPath()
        let session = try atTheFirstHabit(history: history)
        try session.paste(paste.bytes, bracketed: bracketed)
        var screen = try session.waitFor("done? > \(paste.typed)")
        #expect(!screen.contains("Step 2"), "\(screen)")
        #expect(try recorded(history).steps == 0)
        // The line is the person's to edit and send: cleared, the habit is still to decide.
        try session.press("C-u", "s")
        screen = try session.waitFor("Step 2 · Morning")
        try session.press("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("0 done · 1 skipped"), "\(screen)")
    }

    struct Together: CustomTestStringConvertible, Sendable {
        let name: String
        /// tmux key names sent in one write, at the question's menu.
        let keys: [String]
        /// Then pressed alone, if anything.
        let after: [String]
        /// The habit the answer leads to.
        let next: String
        var testDescription: String { name }
    }

    static let togethers: [Together] = [
        Together(name: "2 and Enter", keys: ["2", "Enter"], after: [], next: "Go for a walk"),
        Together(name: "two Downs, then Enter", keys: ["Down", "Down"], after: ["Enter"], next: "Write three lines"),
        Together(name: "two Downs and Enter", keys: ["Down", "Down", "Enter"], after: [], next: "Write three lines"),
        Together(name: "j, j, k and Enter", keys: ["j", "j", "k", "Enter"], after: [], next: "Go for a walk"),
        Together(name: "n, o and Enter", keys: ["n", "o", "Enter"], after: [], next: "Write three lines"),
    ]

    /// Keys written at once (a slow link, `expect`, a key held down) are keys, in order: the
    /// answer is the one they choose, and a key after the one that answered is not taken for
    /// the next step's.
    @Test(arguments: togethers)
    func keysThatArriveTogetherAreKeys(_ together: Together) throws {
        let history = freshHistoryPath()
        let session = try atTheFirstHabit(history: history)
        try session.toTheQuestion()
        try session.send(together.keys)
        try session.waitUntilRead()
        for key in together.after { try session.press(key) }
        var screen = try session.waitFor(together.next)
        #expect(!screen.contains("maybe"), "\(screen)")
        #expect(try recorded(history).steps == 3, "\(screen)")
        try session.press("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("0 skipped"), "\(screen)")
    }

    /// `d` and Enter written at once at a habit: done, and the Enter is not the next habit's.
    @Test func aKeyAndEnterTogetherAtAHabit() throws {
        let history = freshHistoryPath()
        let session = try atTheFirstHabit(history: history)
        try session.send(["d", "Enter"])
        try session.waitUntilRead()
        try session.waitFor("Step 2 · Morning")
        #expect(try recorded(history).steps == 1)
        try session.press("q")
        try session.waitFor("[exit=0]")
    }

    /// Escape from a countdown keeps its time: `t` again goes on from where it was, and the
    /// step records the whole time.
    @Test func theCountdownGoesOnAfterEscape() throws {
        let history = freshHistoryPath()
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && \(Self.run)",
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1", "ROUTINE_HISTORY": history, "ROUTINE_TEST_CLOCK_SPEED": "60"])
        try session.waitFor("done? >")
        var screen = try session.walk([("d", "done? (t: timer) >"), ("t", "⏱ 04:1"), ("Escape", "done? (t: timer) >")])
        try session.press("t")
        screen = try session.waitFor("⏱")
        // What the countdown shows when it starts again: at most what it showed at Escape.
        let shown = try #require(screen.firstMatch(of: /⏱ (\d\d):(\d\d)/))
        let left = Int(shown.1)! * 60 + Int(shown.2)!
        #expect(left < 4 * 60 + 20, "\(screen)")
        try session.press("Enter")
        try session.waitFor("answer (1-5) >")
        try session.enter("q", shown: "answer (1-5) > q")
        try session.waitFor("[exit=0]")
        let log = try execute(["log", "--history", history, "--json"]).stdout
        let seconds = try #require(log.firstMatch(of: /"node":"stretch"[^}]*"seconds":(\d+(\.\d+)?)/))
        #expect(Double(seconds.1)! >= Double(5 * 60 - left), "\(log)")
    }

    /// The time a run took is one number: the summary at the terminal and `log --date` say
    /// the same (the sum of the steps' times).
    @Test func theSummaryAndTheLogAgreeOnTheTimeTaken() throws {
        let history = freshHistoryPath()
        let session = try atTheFirstHabit(history: history)
        try session.press("d")
        try session.waitFor("done? (t: timer) >")
        Thread.sleep(forTimeInterval: 1.2)
        try session.press("s")
        try session.waitFor("answer (1-5) >")
        try session.enter("q", shown: "answer (1-5) > q")
        let screen = try session.waitFor("[exit=0]")
        let shown = try #require(screen.firstMatch(of: #/(took [0-9hms ]+)\n/#)).1
        let log = try execute(["log", "routines/morning.rt", "--history", history, "--date", "2020-01-06"]).stdout
        #expect(log.contains("· " + shown + "\n"), "\(screen)\n\(log)")
    }

    /// 200,000 random characters, controls and sequences among them, decide nothing.
    @Test(arguments: [false, true])
    func aLongRandomPasteDecidesNothing(bracketed: Bool) throws {
        let history = freshHistoryPath()
        let session = try atTheFirstHabit(history: history)
        var random = SystemRandomNumberGenerator()
        var text = ""
        let pool: [ClosedRange<UInt32>] = [0x00...0x1F, 0x20...0x7E, 0x20...0x7E, 0x20...0x7E, 0xA0...0x2FF, 0x4E00...0x4E50, 0x1F600...0x1F640]
        for _ in 0..<200_000 {
            let range = pool[Int.random(in: 0..<pool.count, using: &random)]
            text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
        }
        try session.paste(Array(text.utf8), bracketed: bracketed)
        // tmux may still hold the end of the paste: the queue stays empty a while when it is all read.
        Thread.sleep(forTimeInterval: 0.5)
        try session.waitUntilRead()
        #expect(try recorded(history).steps == 0)
        #expect(!(try session.screen()).contains("Step 2"))
        // Arrows among the bytes may have moved the cursor (they move nothing else): to the
        // line's end, then cleared.
        try session.press("End", "C-u", "q")
        let screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("Morning: quit"), "\(screen)")
        #expect(screen.contains("0 done · 0 skipped"), "\(screen)")
        let (steps, result) = try recorded(history)
        #expect(steps == 0 && result == "quit")
    }

    /// Bracketed paste is on only while the runner reads: after it exits, a paste reaches the
    /// shell's next program without the brackets.
    @Test func bracketedPasteIsOffAgainAtExit() throws {
        let session = try atTheFirstHabit(then: "; cat -v")
        try session.press("q")
        try session.waitFor("Morning: quit")
        try session.paste(Array("xyz\n".utf8), bracketed: true)
        let screen = try session.waitFor("xyz")
        #expect(!screen.contains("[200~"), "\(screen)")
        try session.press("C-d")
        try session.waitFor("[exit=")
    }

    /// Ctrl-Z turns bracketed paste off too: the shell's next program gets a paste as it is.
    @Test func bracketedPasteIsOffWhileSuspended() throws {
        let session = try TmuxSession(command: "cd '\(packageRoot.path)' && PS1='$ ' sh -i", environment: ["TERM": "xterm-256color"])
        try session.waitFor("$")
        try session.enter("\(Self.run) --no-history", shown: "routines/morning.rt")
        try session.waitFor("done? >")
        try session.press("C-z")
        try session.waitFor("Stopped")
        try session.enter("cat -v", shown: "$ cat -v")
        try session.paste(Array("xyz\n".utf8), bracketed: true)
        let screen = try session.waitFor("xyz")
        #expect(!screen.contains("[200~"), "\(screen)")
    }

    /// Closing the terminal (the session killed, the pane killed, the whole tmux server
    /// killed, or a terminal that is not the process's controlling one, so that only end of
    /// input or an error tells; also while the countdown runs) records the run as
    /// interrupted, every time.
    @Test(arguments: ["kill-session", "kill-pane", "kill-server", "setsid", "countdown"])
    func closingTheTerminalRecordsAnInterruption(_ how: String) throws {
        for attempt in 0..<2 {
            let history = freshHistoryPath()
            let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("routine-hangup-\(UUID().uuidString)").path
            let start = how == "setsid" ? "setsid " : ""
            let session = try TmuxSession(
                command: "cd '\(packageRoot.path)' && \(start)sh -c \"echo \\$\\$ > '\(pidFile)'; exec \(Self.run)\"",
                environment: ["TERM": "xterm-256color", "ROUTINE_HISTORY": history])
            try session.waitFor("done? >")
            try session.press("d")
            try session.waitFor("Step 2 · Morning")
            if how == "countdown" {
                try session.press("t")
                try session.waitFor("⏱")
            }
            let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            try session.tmux(
                how == "kill-pane"
                    ? ["kill-pane", "-t", session.name] : how == "kill-server" ? ["kill-server"] : ["kill-session", "-t", session.name])
            let deadline = Date().addingTimeInterval(15)
            while kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(kill(pid, 0) != 0, "the run went on after its terminal closed (\(how), attempt \(attempt))")
            let (steps, result) = try recorded(history)
            #expect(result == "interrupted", "\(how), attempt \(attempt)")
            #expect(steps == 1)
            try? FileManager.default.removeItem(atPath: pidFile)
        }
    }

    /// The countdown stays one line on a terminal narrower than it, however often it ticks.
    @Test func theCountdownStaysOneLineWhenNarrow() throws {
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && \(Self.run) --no-history", environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        try session.waitFor("done? >")
        try session.press("d")
        try session.waitFor("done? (t: timer) >")
        try session.press("t")
        try session.waitFor("⏱ 05:00")
        try session.tmux(["resize-window", "-t", session.name, "-x", "30", "-y", "40"])
        try session.waitFor("⏱ 04:5")
        try session.waitFor("⏱ 04:57")
        let screen = try session.everything()
        #expect(screen.components(separatedBy: "⏱").count == 2, "\(screen)")
        try session.press("Enter")
        try session.waitFor("answer (1-5) >")
    }

    /// A terminal made too short for the menu keeps the one copy it has, and the answer is
    /// typed, also once it is tall again.
    @Test func aTerminalTooShortForTheMenuKeepsOneCopy() throws {
        let session = try atTheFirstHabit()
        try session.toTheQuestion()
        try session.resize(through: [(80, 5), (120, 50)])
        try session.press("2", "Enter")
        try session.waitFor("Go for a walk")
        let everything = try session.everything()
        #expect(everything.components(separatedBy: "5. Tired").count == 2, "\(everything)")
        try session.press("q")
        try session.waitFor("[exit=0]")
    }

    /// Resizes at a question's menu, narrower than its lines and shorter, then wide again:
    /// one copy of the menu stays, under its step's heading, and it still answers.
    @Test func aResizeRedrawsTheMenuInPlace() throws {
        let session = try atTheFirstHabit()
        try session.toTheQuestion()
        try session.resize(through: [(60, 40), (30, 12), (15, 20), (100, 30), (120, 50)])
        try session.press("Down")
        try session.waitFor("  > 2. Okay")
        let everything = try session.everything()
        #expect(everything.components(separatedBy: "5. Tired").count == 2, "\(everything)")
        #expect(everything.components(separatedBy: "answer (1-5) >").count == 2, "\(everything)")
        let visible = try session.tmux(["capture-pane", "-p", "-t", session.name])
        #expect(visible.contains("Step 3 · Morning"), "\(visible)")
        try session.press("Enter")
        try session.waitFor("Go for a walk")
        try session.press("q")
        try session.waitFor("[exit=0]")
    }
}
