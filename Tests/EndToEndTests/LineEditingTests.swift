import Foundation
import Testing

/// The line editor at a real terminal (tmux): cursor keys edit, escape sequences never reach
/// the screen or the answer, and every way out leaves the terminal as it was.
@Suite(.serialized)
struct LineEditingTests {
    static let run = "'\(routineBinary.path)' run routines/morning.rt --date 2020-01-06 --no-history"
    var command: String { "cd '\(packageRoot.path)' && \(Self.run)" }

    /// A session past the first two habits, its question's menu drawn.
    private func atTheQuestion() throws -> TmuxSession {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        try session.toTheQuestion()
        return session
    }

    @Test func cursorKeysAndBackspaceEditTheAnswer() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color"])
        try session.waitFor("done? >")
        // Up and Enter: an empty answer (done), not an escape sequence echoed and refused.
        try session.press("Up", "Enter")
        try session.waitFor("Step 2 · Morning")
        try session.press("z", "z", "z", "C-u", "Enter")
        var screen = try session.waitFor("answer (1-5) >")
        #expect(!screen.contains("^[") && !screen.contains("\\u{1B}"), "\(screen)")
        // "gXreat", then Home, Right, Right, Backspace: "great", a unique start of "Great!".
        try session.press("g", "X", "r", "e", "a", "t", "Home", "Right", "Right", "BSpace", "Enter")
        screen = try session.waitFor("Step 4 · Morning")
        #expect(screen.contains("Run"), "\(screen)")
        #expect(!screen.contains("is not an option"))
        try session.press("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("Morning: quit"))
    }

    @Test func sigtermLeavesTheTerminalCooked() throws {
        let session = try TmuxSession(
            command:
                "cd '\(packageRoot.path)' && sh -c \"echo \\$\\$ > /tmp/routine-sigterm-pid; exec \(Self.run)\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '",
            environment: ["TERM": "xterm-256color"])
        try session.waitFor("done? >")
        let pid = try String(contentsOfFile: "/tmp/routine-sigterm-pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try shell("kill -TERM \(pid)")
        let screen = try session.waitFor("[exit=")
        #expect(screen.contains("Morning: interrupted"))
        #expect(screen.contains("icanon echo"), "\(screen)")
    }

    @Test func ctrlZThenFgTakesTheLineBack() throws {
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && exec bash --norc -i", environment: ["TERM": "xterm-256color", "PS1": "$ "])
        try session.send("-l", Self.run)
        try session.send("Enter")
        try session.waitFor("done? >")
        try session.press("a", "b", "C-z")
        try session.waitFor("Stopped")
        try session.send("-l", "fg")
        try session.send("Enter")
        try session.waitFor("> ab")
        // Still raw: a cursor key edits, it is not echoed.
        try session.press("BSpace", "BSpace", "Left", "Enter")
        let screen = try session.waitFor("Step 2 · Morning")
        #expect(!screen.contains("^[[D"), "\(screen)")
    }

    /// Ctrl-Z at a question's menu, then `fg`: the menu is drawn afresh under what the shell
    /// wrote, over none of it, and still answers.
    @Test func ctrlZAtAMenuThenFgDrawsItUnderTheShell() throws {
        let session = try TmuxSession(
            command: "cd '\(packageRoot.path)' && exec bash --norc -i", environment: ["TERM": "xterm-256color", "PS1": "$ "])
        try session.send("-l", Self.run)
        try session.send("Enter")
        try session.toTheQuestion()
        try session.press("C-z")
        try session.waitFor("Stopped")
        try session.enter("fg", shown: "$ fg")
        try session.waitFor("fg\n")
        try session.press("Down")
        let screen = try session.waitFor("  > 2. Okay")
        #expect(screen.contains("Stopped") && screen.contains("$ fg"), "\(screen)")
        try session.press("Enter")
        try session.waitFor("Go for a walk")
    }

    /// An answer that leads to `end` can be taken back; Enter at a numeric habit records its
    /// target; the progress is the longest remaining way, exact once the answers fixed it; the summary names skips and answers.
    @Test func theEndCanBeTakenBackAndEnterTakesTheTarget() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color"])
        var screen = try session.waitFor("done? >")
        // The longest way: water, stretch, mood, then "Great!": run, shower, meditate, plan, water2.
        #expect(screen.contains("Step 1 · Morning · at most 7 more"), "\(screen)")
        try session.press("Enter")
        try session.waitFor("Step 2 · Morning")
        try session.press("s")  // single keys act at once
        try session.waitFor("answer (1-5) >")
        try session.press("4")  // a digit chooses at once: "Skip today" -> end
        screen = try session.waitFor("That's the end of 'Morning'. Enter to finish, b to go back >")
        try session.press("b")
        try session.waitFor("back to step 3")
        // The menu marks the answer given before (4); Up twice: "Okay" -> walk -> plan -> water2.
        try session.waitFor("  > 4. Skip today")
        try session.press("Up", "Up", "Enter")
        screen = try session.waitFor("Go for a walk")
        // The answer fixed the way: walk, plan, water2, exactly.
        #expect(screen.contains("Step 3 · Morning · at most 5 more"), "\(screen)")
        #expect(screen.contains("Step 4 · Morning · 2 more"), "\(screen)")
        try session.press("d")
        screen = try session.waitFor("Plan the day")
        #expect(screen.contains("Step 5 · Morning · 1 more"), "\(screen)")
        try session.press("Enter")
        screen = try session.waitFor("amount [8 glasses] >")
        #expect(screen.contains("· the last step"), "\(screen)")
        try session.press("Enter")
        try session.waitFor("That's the end of 'Morning'.")
        try session.press("Enter")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("Morning: completed"))
        #expect(screen.contains("Drink water: 8 of 8 glasses"))
        #expect(screen.contains("skipped: Stretch"))
        #expect(screen.contains("How are you feeling today? Okay"))
    }

    /// The options as a menu: the first highlighted, Down and j move, Up and k back, Enter
    /// chooses the highlighted one; letters still type an answer.
    @Test func questionsAreAMenu() throws {
        let session = try atTheQuestion()
        // The menu is drawn once the answer is awaited: the first option highlighted.
        var screen = try session.screen()
        #expect(screen.contains("answer (1-5) >"), "\(screen)")
        try session.press("Down", "j", "j", "Up")
        screen = try session.waitFor("  > 3. Not so good")
        #expect(screen.contains("    1. Great!") && screen.contains("    5. Tired"))
        try session.send("k")
        try session.waitFor("  > 2. Okay")
        try session.send("Enter")
        try session.waitFor("Go for a walk")
        try session.send("b")
        try session.waitFor("back to step 3")
        try session.press("t", "i", "Enter")  // a unique start of "Tired", typed
        screen = try session.waitFor("Plan the day")
        try session.send("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("How are you feeling today? Tired"))
    }

    /// `t` starts a countdown of the habit's duration in place; with the clock sped up (a
    /// minute a second, the test-only ROUTINE_TEST_CLOCK_SPEED) it reaches zero, says so, and
    /// Enter marks the habit done.
    @Test func theTimerCountsDownAndEnterMarksTheHabitDone() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color", "ROUTINE_TEST_CLOCK_SPEED": "120"])
        try session.waitFor("done? >")
        try session.send("d")
        var screen = try session.waitFor("done? (t: timer) >")
        #expect(screen.contains("Stretch · 5m"))
        try session.send("t")
        screen = try session.waitFor("⏱ 0")
        try session.send("Space")
        try session.waitFor("paused · Space: go on")
        try session.send("Space")
        try session.waitFor("⏱ 00:00  time is up · Enter: done")
        try session.send("Enter")
        try session.waitFor("> 1. Great!")
        try session.enter("q", shown: "answer (1-5) > q")  // at a menu, letters are typed: q and Enter
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("2 done · 0 skipped"))
        #expect(screen.contains("Stretch: planned 5m · took "), "\(screen)")
    }

    /// A resize draws the menu again at the new width, and it still answers.
    @Test func aResizeRedrawsTheMenu() throws {
        let session = try atTheQuestion()
        _ = try session.tmux(["resize-window", "-t", session.name, "-x", "60", "-y", "40"])
        try session.send("Down")
        let screen = try session.waitFor("  > 2. Okay")
        #expect(screen.components(separatedBy: "answer (1-5) >").count >= 2, "\(screen)")
        try session.send("Enter")
        try session.waitFor("Go for a walk")
        try session.send("q")
        try session.waitFor("[exit=0]")
    }

    /// A terminal too short for the menu reads a typed answer under the options as printed.
    @Test func aShortTerminalGetsALineInsteadOfTheMenu() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        _ = try session.tmux(["resize-window", "-t", session.name, "-x", "80", "-y", "5"])
        try session.waitFor("done? >")
        try session.send("d")
        try session.waitFor("Stretch")
        try session.send("d")
        let screen = try session.waitFor("answer (1-5) >")
        #expect(!screen.contains("> 1. Great!"), "\(screen)")
        try session.press("2", "Enter")
        try session.waitFor("Go for a walk")
        try session.send("q")
        try session.waitFor("[exit=0]")
    }

    /// A typed start of an option matches past its leading emoji.
    @Test func anEmojiPrefixIsLookedPast() throws {
        let dir = try temporaryDirectory()
        try "routine \"E\"\nquestion q \"How?\"\n  \"😀 Great!\" -> end\n  \"😐 Okay\" -> end\n"
            .write(to: dir.appendingPathComponent("e.rt"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            command: "cd '\(dir.path)' && '\(routineBinary.path)' run e.rt --no-history", environment: ["TERM": "xterm-256color"])
        try session.waitFor("> 1. 😀 Great!")
        try session.press("g", "r", "e", "Enter")
        try session.waitFor("That's the end of 'E'.")
        try session.send("Enter")
        let screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("How? 😀 Great!"), "\(screen)")
    }

    /// TERM=dumb keeps plain lines: a letter waits for Enter, no menu is drawn.
    @Test func aDumbTerminalReadsPlainLines() throws {
        let session = try TmuxSession(command: command, environment: ["TERM": "dumb"])
        try session.waitFor("done? >")
        try session.send("s")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!(try session.screen()).contains("Step 2"), "a single key waits for Enter")
        try session.send("Enter")
        try session.waitFor("Step 2 · Morning")
        try session.send("d", "Enter")
        let screen = try session.waitFor("answer (1-5) >")
        #expect(!screen.contains("> 1. Great!"))
        try session.send("q", "Enter")
        try session.waitFor("[exit=0]")
    }
}
