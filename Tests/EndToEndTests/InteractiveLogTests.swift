import Foundation
import Testing

/// The terminal runner passing over a habit a log already did, and `back` leaving the log be.
@Suite(.serialized)
struct InteractiveLogTests {
    @Test func aLoggedHabitIsPassedOverAndBackLeavesTheLog() throws {
        let history = freshHistoryPath()
        let logged = try execute(["done", "routines/morning.rt", "water", "--date", "2020-01-06", "--history", history])
        #expect(logged.status == 0, "\(logged.stderr)")
        let command = "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06 --history '\(history)'"
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        var screen = try session.waitFor("Step 2 · Morning")
        #expect(screen.contains("1. Drink a glass of water: done at ") && screen.contains(" (logged)"), "\(screen)")
        #expect(!screen.contains("Step 1 · Morning"))
        try session.press("Enter")
        try session.waitFor("answer (1-5) >")
        try session.press("b", "Enter")
        try session.waitFor("back to step 2: Stretch")
        try session.press("b")
        try session.waitFor("nothing to go back to: this is the first step")
        try session.press("q")
        screen = try session.waitFor("[exit=0]")
        #expect(screen.contains("0 done · 0 skipped · 1 not scheduled"), "\(screen)")
        let export = try execute(["history", "export", "--history", history]).stdout
        #expect(export.split(separator: "\n").first?.contains(#""kind":"log""#) == true)
        #expect(export.contains(#""result":"not-scheduled","at":"#) && export.contains(#""reason":"done-by-log""#))
    }

    /// A log made while the run waits at an earlier step: the run reads the day again when it
    /// reaches the habit, and passes it over as done by the log instead of asking.
    @Test func aHabitLoggedDuringTheRunIsNotDoneTwice() throws {
        let history = freshHistoryPath()
        let command = "cd '\(packageRoot.path)' && '\(routineBinary.path)' run routines/morning.rt --date 2020-01-06 --history '\(history)'"
        let session = try TmuxSession(command: command, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        try session.waitFor("Step 1 · Morning")
        let logged = try execute(["done", "routines/morning.rt", "stretch", "--date", "2020-01-06", "--history", history])
        #expect(logged.status == 0, "\(logged.stderr)")
        try session.press("Enter")
        var screen = try session.waitFor("answer (1-5) >")
        #expect(screen.contains("Stretch") && screen.contains("(logged)"), "\(screen)")
        #expect(!screen.contains("Step 2 · Morning"), "stretch is not asked: \(screen)")
        #expect(!screen.contains("was done meanwhile"), "\(screen)")
        try session.press("q", "Enter")
        screen = try session.waitFor("[exit=0]")
        let export = try execute(["history", "export", "--history", history]).stdout
        let stretchDone = export.components(separatedBy: #""node":"stretch","kind":"habit","title":"Stretch","result":"done""#).count - 1
        #expect(stretchDone == 1, "\(export)")
        #expect(export.contains(#""node":"stretch","kind":"habit","title":"Stretch","result":"not-scheduled""#))
        #expect(export.contains(#""reason":"done-by-log""#))
    }
}
