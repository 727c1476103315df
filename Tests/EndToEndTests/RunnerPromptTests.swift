import Foundation
import Testing

/// The runner's prompts at a terminal say what was recorded and keep working: the target
/// echoed, single keys at yes-or-no questions, the menu after a message and after going
/// back, the timer's Escape, help and time.
@Suite(.serialized)
struct RunnerPromptTests {
    static let morning = "'\(routineBinary.path)' run routines/morning.rt --date 2020-01-06 --no-history"

    private func session(_ routine: String? = nil, speed: String? = nil, history: String? = nil) throws -> TmuxSession {
        var command = "cd '\(packageRoot.path)' && \(Self.morning)"
        if let routine {
            let dir = try temporaryDirectory()
            try routine.write(to: dir.appendingPathComponent("r.rt"), atomically: true, encoding: .utf8)
            command = "cd '\(dir.path)' && '\(routineBinary.path)' run r.rt" + (history.map { " --history '\($0)'" } ?? " --no-history")
        }
        var environment = ["TERM": "xterm-256color", "NO_COLOR": "1"]
        if let speed { environment["ROUTINE_TEST_CLOCK_SPEED"] = speed }
        return try TmuxSession(command: command, environment: environment)
    }

    /// The options of the menu drawn last: the rows above the last input line.
    private func lastMenu(_ screen: String) -> [String] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let input = lines.lastIndex(where: { $0.contains("answer (1-") }) else { return [] }
        return Array(lines[max(0, input - 5)..<input])
    }

    @Test func enterAtAnAmountShowsTheTargetRecorded() throws {
        let session = try session("routine \"A\"\nhabit reps \"Push-ups\" target 30 reps\n")
        try session.waitFor("amount [30 reps] >")
        try session.press("Enter")
        let screen = try session.waitFor("That's the end of 'A'.")
        #expect(screen.contains("amount [30 reps] > 30 reps"), "\(screen)")
        try session.press("Enter")
        #expect(try session.waitFor("[exit=0]").contains("Push-ups: 30 of 30 reps"))
    }

    /// `7` of five options is refused; Up and Down still move the highlight, Enter chooses.
    @Test func theMenuWorksAfterAMessage() throws {
        let session = try session()
        try session.toTheQuestion()
        try session.press("7")
        try session.waitFor("there is no option 7")
        try session.press("Down")
        let screen = try session.waitFor("  > 2. Okay")
        #expect(lastMenu(screen).first { $0.contains("> ") }?.contains("2. Okay") == true, "\(screen)")
        try session.press("Enter")
        try session.waitFor("Go for a walk")
        try session.press("q")
        try session.waitFor("[exit=0]")
    }

    /// Back at a question, its menu highlights the answer given before.
    @Test func backToAQuestionHighlightsThePreviousAnswer() throws {
        let session = try session()
        try session.toTheQuestion()
        try session.press("Down", "Down", "Enter")
        try session.waitFor("Write three lines")
        try session.press("b")
        try session.waitFor("back to step 3")
        Thread.sleep(forTimeInterval: 0.2)
        try session.waitUntilRead()
        let screen = try session.screen()
        let marked = lastMenu(screen).filter { $0.contains("> ") }
        #expect(marked.count == 1 && marked[0].contains("3. Not so good"), "\(screen)")
        try session.press("Enter")
        try session.waitFor("Write three lines")
        try session.press("q")
        try session.waitFor("[exit=0]")
    }

    /// A lone Escape leaves the timer after 50 ms, and the next key is not eaten.
    @Test func escapeLeavesTheTimerAndTheNextKeyCounts() throws {
        let session = try session()
        try session.waitFor("done? >")
        var screen = try session.walk([("d", "done? (t: timer) >"), ("?", "t: a timer")])
        try session.press("t")
        screen = try session.waitFor("⏱ 0")
        #expect(screen.contains("Esc: back"), "\(screen)")
        try session.press("Escape")
        let deadline = Date().addingTimeInterval(15)
        while try session.screen().contains("⏱"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!(try session.screen()).contains("⏱"), "Escape left the countdown on screen")
        try session.press("s")
        screen = try session.waitFor("answer (1-5) >")
        try session.enter("q", shown: "answer (1-5) > q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("1 done · 1 skipped"), "\(screen)")
    }

    /// A minute's countdown at twelve times speed, paused for two seconds (24 s of its
    /// clock): the habit took a minute, not the time it was on screen.
    @Test func theTimersTimeLeavesOutPauses() throws {
        let history = freshHistoryPath()
        let session = try session("routine \"A\"\nhabit hold \"Hold\" for 1m\n", speed: "12", history: history)
        try session.waitFor("done? (t: timer) >")
        try session.press("t")
        try session.waitFor("⏱ 00:5")
        try session.press("Space")
        try session.waitFor("paused")
        Thread.sleep(forTimeInterval: 2)
        try session.press("Space")
        try session.waitFor("time is up")
        try session.press("Enter")
        try session.waitFor("That's the end of 'A'.")
        try session.press("Enter")
        let screen = try session.waitFor("[exit=0]")
        // The countdown's minute and what ran after it rang until Enter, never the 24 s paused.
        #expect(screen.range(of: #"Hold: planned 1m · took 1m( 1?[0-9]s)?\n"#, options: .regularExpression) != nil, "\(screen)")
        let log = try execute(["log", "--history", history, "--json"])
        let seconds = log.stdout.firstMatch(of: /"seconds":([0-9.]+)/).flatMap { Double($0.1) } ?? 0
        #expect((60..<84).contains(seconds), "the history records the countdown's time: \(log.stdout)")
    }
}
