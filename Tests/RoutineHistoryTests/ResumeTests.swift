import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

struct ResumeTests {
    @Test func anUnchangedRoutineReplaysToTheSameRun() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let (original, id) = try recordRun(store, morning, date: "2026-11-24", decisions: [.decision(.done(value: nil)), .decision(.option(0))])
        let stored = try #require(try store.latestRun(of: "Morning", on: "2026-11-24"))
        #expect(stored.id == id && stored.isResumable)
        let plan = ResumePlan(stored, routine: morning, date: CalendarDate("2026-11-24")!)
        #expect(plan.divergence == nil)
        #expect(plan.keptSteps == 3)
        #expect(plan.run.records == original.records)
        #expect(plan.run.current == original.current)

        // The resumed run goes on in the same record.
        let recorder = try RunRecorder.resume(store, plan, onFailure: { Issue.record("\($0)") })
        var run = plan.run
        run.decide(.done(value: 8))
        recorder.observe(.record(run.records.last!), run)
        recorder.observe(.end(.completed), run)
        let after = try #require(try store.latestRun(of: "Morning", on: "2026-11-24"))
        #expect(after.id == id && after.result == .completed && after.steps.count == 4)
        #expect(try store.runCount() == 1)
    }

    struct Divergence: CustomTestStringConvertible, Sendable {
        let name: String
        let changed: String
        var date = "2026-11-23"
        let step: Int
        let reason: String
        var testDescription: String { name }
    }

    /// Each edits the morning routine after a run that did: water, mood "Good", run (Monday).
    static let divergences: [Divergence] = [
        Divergence(
            name: "the node is gone",
            changed: """
                routine "Morning"
                habit water "Water" -> feel
                question feel "Mood?"
                  "Good" -> run
                  "Bad"
                habit run "Run" for 30m on mon
                """, step: 2, reason: "no node is named 'mood' any more"),
        Divergence(
            name: "another node is waiting",
            changed: """
                routine "Morning"
                habit water "Water" -> stretch
                habit stretch "Stretch" -> mood
                question mood "Mood?"
                  "Good" -> run
                  "Bad"
                habit run "Run" for 30m on mon
                """, step: 2, reason: "'stretch' comes at this point now, not 'mood'"),
        Divergence(
            name: "the option's text changed",
            changed: """
                routine "Morning"
                habit water "Water" -> mood
                question mood "Mood?"
                  "Great" -> run
                  "Bad"
                habit run "Run" for 30m on mon
                """, step: 2, reason: "option 1 of 'mood' is \"Great\" now, not \"Good\""),
        Divergence(
            name: "the option is gone",
            changed: """
                routine "Morning"
                habit water "Water" -> mood
                question mood "Mood?"
                  "Bad" -> run
                habit run "Run" for 30m on mon
                """, step: 2, reason: "option 1 of 'mood' is \"Bad\" now, not \"Good\""),
        Divergence(
            name: "a habit became a question",
            changed: """
                routine "Morning"
                question water "Water?"
                  "yes"
                  "no"
                """, step: 1, reason: "'water' is a question now"),
        Divergence(
            name: "a habit now asks for an amount",
            changed: """
                routine "Morning"
                habit water "Water" target 2 glasses -> mood
                question mood "Mood?"
                  "Good" -> run
                  "Bad"
                habit run "Run" for 30m on mon
                """, step: 1, reason: "'water' asks for an amount now"),
        Divergence(
            name: "the run ends earlier",
            changed: """
                routine "Morning"
                habit water "Water" -> mood
                question mood "Mood?"
                  "Good"
                  "Bad"
                """, step: 3, reason: "the run now ends before this step"),
    ]

    @Test(arguments: divergences)
    func aChangedRoutineStopsTheReplayThere(_ c: Divergence) throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let (_, id) = try recordRun(
            store, morning, date: c.date,
            decisions: [
                .decision(.done(value: nil)), .decision(.option(0)), .decision(.skip),
            ], end: .quit)
        let stored = try #require(try store.latestRun(of: "Morning", on: c.date))
        #expect(stored.steps.count == 3)
        let plan = ResumePlan(stored, routine: routine(c.changed), date: CalendarDate(c.date)!)
        let divergence = try #require(plan.divergence)
        #expect(divergence.step == c.step)
        #expect(divergence.reason == c.reason)
        #expect(plan.keptSteps == c.step - 1)
        #expect(plan.run.records.count == c.step - 1)

        _ = try RunRecorder.resume(store, plan, onFailure: { Issue.record("\($0)") })
        let after = try #require(try store.latestRun(of: "Morning", on: c.date))
        #expect(after.id == id && after.result == nil)
        #expect(after.steps.map(\.decision.step) == Array(1..<c.step))
    }

    @Test func aHabitNoLongerPassedOverStopsTheReplay() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        // Tuesday: 'run' (mon) is passed over at step 3.
        try recordRun(store, morning, date: "2026-11-24", decisions: [.decision(.done(value: nil)), .decision(.option(0))], end: .quit)
        let stored = try #require(try store.latestRun(of: "Morning", on: "2026-11-24"))
        // The same routine with 'run' on every day.
        let everyDay = routine(morningSource.replacingOccurrences(of: "for 30m on mon", with: "for 30m"))
        let plan = ResumePlan(stored, routine: everyDay, date: CalendarDate("2026-11-24")!)
        #expect(plan.divergence == ReplayDivergence(step: 3, node: "run", reason: "'run' is no longer passed over on Tuesdays"))
        #expect(plan.keptSteps == 2)
        #expect(plan.run.current.map(everyDay.id(of:)) == "run")
    }
}
