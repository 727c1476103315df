import Foundation
import RoutineHistory
import RoutineKit
import Testing

@testable import RoutineStudio

/// A run in the browser: every endpoint, its refusals and JSON shape, a whole run, the holder
/// rule, `--no-history`, and resume across the studio and `routine run`.
@Suite(.serialized)
struct StudioRunTests {
    static let routine = """
        routine "Run"
        habit water "Glass of water" -> pushups
        habit pushups "Push-ups" target 20 reps -> mood
        question mood "Mood?"
          "Good" -> walk
          "Bad" -> nap
        habit walk "Walk" for 10m
        habit nap "Nap"

        """

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
    }

    static func json(_ members: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: members), as: UTF8.self)
    }

    /// A started run's number and holder.
    static func start(_ studio: StudioFixture, _ members: [String: Any] = [:]) async throws -> (run: Int, holder: String, body: [String: Any]) {
        let answer = await studio.send("POST", "/api/run/start", json(members))
        #expect(answer.status == 200, "\(answer.body)")
        let body = try object(answer)
        return (try #require(body["run"] as? Int), try #require(body["holder"] as? String), body)
    }

    static func answer(_ studio: StudioFixture, _ run: Int, _ holder: String?, _ text: String) async -> RawHTTP.Answer {
        var members: [String: Any] = ["run": run, "answer": text]
        if let holder { members["holder"] = holder }
        return await studio.send("POST", "/api/run/answer", json(members))
    }

    static func prompt(_ body: [String: Any]) -> String? {
        let prompt = body["prompt"] as? [String: Any]
        return prompt?["event"] as? String == "confirm-end" ? "end" : prompt?["node"] as? String
    }

    @Test func aWholeRunIsRecordedStepByStep() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let (run, holder, first) = try await Self.start(studio, ["date": "2026-11-23"])
            #expect(first["routine"] as? String == "Run")
            #expect(first["date"] as? String == "2026-11-23")
            #expect(first["recorded"] as? Bool == true)
            #expect(first["result"] is NSNull)
            let events = try #require(first["events"] as? [[String: Any]])
            #expect(events.map { $0["event"] as? String } == ["start"])
            let prompt = try #require(first["prompt"] as? [String: Any])
            #expect(prompt["node"] as? String == "water")
            #expect(prompt["title"] as? String == "Glass of water")
            #expect(prompt["step"] as? Int == 1)
            #expect((prompt["left"] as? [String: Any])?["text"] as? String == "at most 3 more")
            let historyPath = try #require(studio.historyPath)
            let store = try #require(try HistoryStore.open(historyPath, create: false))
            var expected = ["pushups", "mood", "walk", "end", nil]
            for text in ["d", "15", "Good", "d", ""] {
                let answer = await Self.answer(studio, run, holder, text)
                #expect(answer.status == 200, "\(answer.body)")
                let body = try Self.object(answer)
                #expect(Self.prompt(body) == expected.removeFirst())
                // Committed before the answer returned.
                let steps = (body["steps"] as? [Any])?.count ?? -1
                #expect(try store.run(id: Int64(run))?.steps.count == steps)
                if text == "15" {
                    let numeric = try #require((body["events"] as? [[String: Any]])?.first)
                    #expect(numeric["value"] as? Double == 15)
                    #expect(numeric["target"] as? Double == 20)
                }
                if text == "Good" {
                    let walk = try #require(body["prompt"] as? [String: Any])
                    #expect(walk["duration"] as? String == "10m")
                    #expect(walk["seconds"] as? Int == 600)
                }
            }
            let ended = await Self.answer(studio, run, holder, "d")
            #expect(ended.status == 409)
            #expect((try Self.object(ended)["error"] as? [String: Any])?["message"] as? String == "this run has ended")
            let last = try Self.object(await studio.get("/api/run/\(run)"))
            #expect(last["result"] as? String == "completed")
            let summary = try #require(last["summary"] as? [String: Any])
            #expect(summary["done"] as? Int == 3)
            #expect((summary["lines"] as? [String])?.contains("3 done · 0 skipped · 0 not scheduled") == true)
            let stored = try #require(try store.run(id: Int64(run)))
            #expect(stored.result == .completed)
            #expect(stored.steps.map(\.decision.node) == ["water", "pushups", "mood", "walk"])
        }
    }

    @Test func backUndoesTheRecordedStepAndAnotherAnswerTakesItsPlace() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let (run, holder, _) = try await Self.start(studio, ["date": "2026-11-23"])
            let historyPath = try #require(studio.historyPath)
            let store = try #require(try HistoryStore.open(historyPath, create: false))
            for text in ["d", "15", "Good"] { #expect(await Self.answer(studio, run, holder, text).status == 200) }
            #expect(try store.run(id: Int64(run))?.steps.map(\.decision.node) == ["water", "pushups", "mood"])
            // Back from the walk to the question: its answer is taken out of the history.
            let back = try Self.object(await Self.answer(studio, run, holder, "b"))
            #expect(Self.prompt(back) == "mood")
            #expect((back["events"] as? [[String: Any]])?.first?["event"] as? String == "back")
            #expect((back["steps"] as? [Any])?.count == 2)
            #expect(try store.run(id: Int64(run))?.steps.map(\.decision.node) == ["water", "pushups"])
            // The other answer leads elsewhere, and is what the history keeps.
            let bad = try Self.object(await Self.answer(studio, run, holder, "Bad"))
            #expect(Self.prompt(bad) == "nap")
            for text in ["d", ""] { #expect(await Self.answer(studio, run, holder, text).status == 200) }
            let stored = try #require(try store.run(id: Int64(run)))
            #expect(stored.result == .completed)
            #expect(stored.steps.map(\.decision.node) == ["water", "pushups", "mood", "nap"])
            #expect(stored.steps[2].decision.optionText == "Bad")
        }
    }

    @Test func refusalsSayWhy() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let (run, holder, _) = try await Self.start(studio)
            #expect(await Self.answer(studio, run, holder, "b").status == 422)
            #expect(await Self.answer(studio, run, holder, "d").status == 200)
            let refused = await Self.answer(studio, run, holder, "lots")
            #expect(refused.status == 422)
            let body = try Self.object(refused)
            #expect(
                (body["error"] as? [String: Any])?["message"] as? String
                    == "'lots' is not an amount: enter a number such as 8 or 2.5 (target 20 reps)")
            #expect(Self.prompt(body) == "pushups")
            #expect(await Self.answer(studio, run, holder, "15").status == 200)
            #expect(await Self.answer(studio, run, holder, "s").status == 422)  // a question cannot be skipped
            #expect(await Self.answer(studio, run, holder, "3").status == 422)
            #expect(await Self.answer(studio, 999, holder, "d").status == 404)
            #expect(await studio.get("/api/run/999").status == 404)
            #expect(await studio.get("/api/run/abc").status == 404)
            #expect(await Self.answer(studio, run, nil, "1").status == 409)
            #expect(await studio.send("POST", "/api/run/answer", #"{"run": 1}"#).status == 400)
            #expect(await studio.send("POST", "/api/run/answer", "[]").status == 400)
            #expect(await studio.send("POST", "/api/run/start", #"{"resume": true, "fresh": true}"#).status == 400)
            #expect(await studio.send("POST", "/api/run/start", #"{"date": "2026-02-30"}"#).status == 400)
            #expect(await studio.send("POST", "/api/run/start", #"{"colour": 1}"#).status == 400)
            #expect(await studio.send("POST", "/api/run/start", #"{"date": "2999-01-01"}"#).status == 422)
            #expect(await studio.send("POST", "/api/run/take", #"{"run": 999}"#).status == 404)
        }
    }

    @Test func anUnfinishedRunIsOfferedThenResumedOrLeft() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let (run, holder, _) = try await Self.start(studio)
            #expect(await Self.answer(studio, run, holder, "d").status == 200)
            #expect(await Self.answer(studio, run, holder, "q").status == 200)
            let offer = try #require(try Self.object(await studio.send("POST", "/api/run/start", "{}"))["offer"] as? [String: Any])
            #expect(offer["run"] as? Int == run)
            #expect(offer["step"] as? Int == 2)
            #expect(offer["result"] as? String == "quit")
            #expect(offer["position"] as? String == "at step 2 (Push-ups)")
            #expect((try Self.object(await studio.get("/api/run"))["offer"] as? [String: Any])?["run"] as? Int == run)
            let (resumed, newHolder, body) = try await Self.start(studio, ["resume": true])
            #expect(resumed == run)
            #expect((body["events"] as? [[String: Any]])?.map { $0["event"] as? String } == ["start", "resume", "habit"])
            #expect(Self.prompt(body) == "pushups")
            #expect(await Self.answer(studio, run, holder, "3").status == 409)  // the old holder's quit ended its hold
            #expect(await Self.answer(studio, run, newHolder, "3").status == 200)
            let (fresh, _, _) = try await Self.start(studio, ["fresh": true])
            #expect(fresh != run)
        }
    }

    @Test func onlyThePageThatHoldsARunAnswers() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let (run, first, _) = try await Self.start(studio)
            // A second page: offered the held run, refused when it resumes, and takes over only when asked.
            let offer = try #require(try Self.object(await studio.send("POST", "/api/run/start", "{}"))["offer"] as? [String: Any])
            #expect(offer["held"] as? Bool == true)
            #expect(offer["holder"] == nil)
            let refused = await studio.send("POST", "/api/run/start", #"{"resume": true}"#)
            #expect(refused.status == 409)
            #expect(try Self.object(refused)["holder"] == nil)
            #expect(await Self.answer(studio, run, "someone else", "d").status == 409)
            #expect(await Self.answer(studio, run, first, "d").status == 200)
            let watched = try Self.object(await studio.get("/api/run/\(run)"))
            #expect(watched["holder"] == nil)
            #expect(Self.prompt(watched) == "pushups")
            let taken = try Self.object(await studio.send("POST", "/api/run/take", Self.json(["run": run])))
            let second = try #require(taken["holder"] as? String)
            #expect(taken["claim"] as? Int == 2)
            #expect(await Self.answer(studio, run, first, "5").status == 409)
            #expect(await Self.answer(studio, run, second, "5").status == 200)
            // The page that holds it takes it up again with its holder (a reload).
            #expect(
                try Self.object(await studio.send("POST", "/api/run/start", Self.json(["resume": true, "holder": second])))["holder"] as? String
                    == second)
        }
    }

    @Test func withoutHistoryRunsWorkAndSaySoRecordingNothing() async throws {
        try await StudioFixture.with(Self.routine, history: false) { studio in
            let (run, holder, body) = try await Self.start(studio)
            #expect(body["recorded"] as? Bool == false)
            #expect((body["notes"] as? [String])?.first == BrowserRuns.notRecorded)
            for text in ["d", "20", "2", "d"] { #expect(await Self.answer(studio, run, holder, text).status == 200) }
            let end = try Self.object(await Self.answer(studio, run, holder, ""))
            #expect(end["result"] as? String == "completed")
            #expect((try Self.object(await studio.get("/api/run"))["offer"]) is NSNull)
        }
    }

    @Test func aBrowserRunQuitIsResumedByTheTerminalAndTheOtherWayRound() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let history = try #require(studio.historyPath)
            let (run, holder, _) = try await Self.start(studio)
            for text in ["d", "12", "q"] { #expect(await Self.answer(studio, run, holder, text).status == 200) }
            let resumed = try StudioRunBinary.run(["run", studio.path, "--resume", "--history", history], input: "1\nd\n")
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stderr.isEmpty, "\(resumed.stderr)")
            // Held open across the terminal's runs and the studio's own opening of the file, as
            // the studio holds a run's history: it still sees what the terminal wrote.
            let store = try #require(try HistoryStore.open(history, create: false))
            let done = try #require(try store.run(id: Int64(run)))
            #expect(done.result == .completed)
            #expect(done.steps.map(\.decision.node) == ["water", "pushups", "mood", "walk"])

            // A scripted terminal run that quits, taken up in the browser (on another day: the
            // habits done today would be passed over).
            let quit = try StudioRunBinary.run(["run", studio.path, "--history", history, "--date", "2026-11-20"], input: "d\nq\n")
            #expect(quit.status == 0, "\(quit.stderr)")
            let offered = await studio.send("POST", "/api/run/start", #"{"date": "2026-11-20"}"#)
            let offer = try #require(try Self.object(offered)["offer"] as? [String: Any], "\(offered.body) \(quit)")
            let terminalRun = try #require(offer["run"] as? Int)
            #expect(terminalRun != run)
            let (taken, newHolder, body) = try await Self.start(studio, ["resume": true, "date": "2026-11-20"])
            #expect(taken == terminalRun)
            #expect(Self.prompt(body) == "pushups")
            for text in ["20", "Bad", "d", ""] { #expect(await Self.answer(studio, taken, newHolder, text).status == 200) }
            let finished = try #require(try store.run(id: Int64(terminalRun)))
            #expect(finished.result == .completed)
            #expect(finished.steps.map(\.decision.node) == ["water", "pushups", "mood", "nap"])
            #expect(try store.runCount() == 2)
        }
    }

    @Test func aRunTakenUpInATerminalIsNotAnsweredOverByTheStudio() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let history = try #require(studio.historyPath)
            let (run, holder, _) = try await Self.start(studio)
            #expect(await Self.answer(studio, run, holder, "d").status == 200)
            // The tab was closed: the run stays unfinished; a terminal resumes it and answers.
            let resumed = try StudioRunBinary.run(["run", studio.path, "--resume", "--history", history], input: "7\n")
            #expect(resumed.status == 3, "\(resumed.stderr)")
            let refused = await Self.answer(studio, run, holder, "7")
            #expect(refused.status == 409)
            let store = try #require(try HistoryStore.open(history, create: false))
            #expect(try store.run(id: Int64(run))?.steps.count == 2)
        }
    }

    @Test(arguments: [true, false]) func everyAnswerIsAnnouncedOnTheLiveChannel(history: Bool) async throws {
        try await StudioFixture.with(Self.routine, history: history) { studio in
            let stream = await RawEventStream.open(port: studio.port, headers: studio.pageHeaders)
            #expect(await stream.nextData() == "{\"version\":1}")
            let (run, holder, _) = try await Self.start(studio)
            #expect(await stream.nextData()?.hasPrefix("{\"history\":") == true)
            #expect(await Self.answer(studio, run, holder, "d").status == 200)
            // Another page hears of the answer, and reads the run again.
            #expect(await stream.nextData()?.hasPrefix("{\"history\":") == true)
            #expect(Self.prompt(try Self.object(await studio.get("/api/run/\(run)"))) == "pushups")
        }
    }

    @Test func aRunNoPageHoldsIsShownFromTheHistoryAndTakenUp() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let history = try #require(studio.historyPath)
            // A script whose answers ran out: the run is left incomplete, and no page holds it.
            let left = try StudioRunBinary.run(["run", studio.path, "--history", history], input: "d\n14\n")
            #expect(left.status == 3, "\(left.stderr)")
            let offer = try #require(try Self.object(await studio.get("/api/run"))["offer"] as? [String: Any])
            let run = try #require(offer["run"] as? Int)
            #expect(offer["result"] as? String == "incomplete")
            let shown = try Self.object(await studio.get("/api/run/\(run)"))
            #expect(shown["held"] as? Bool == false)
            #expect(shown["result"] as? String == "incomplete")
            #expect(shown["prompt"] is NSNull)
            #expect((shown["steps"] as? [[String: Any]])?.map { $0["node"] as? String } == ["water", "pushups"])
            #expect(await Self.answer(studio, run, "anyone", "1").status == 409)
            let taken = try Self.object(await studio.send("POST", "/api/run/take", Self.json(["run": run])))
            let holder = try #require(taken["holder"] as? String)
            #expect(Self.prompt(taken) == "mood")
            #expect((taken["events"] as? [[String: Any]])?.map { $0["event"] as? String } == ["start", "resume", "habit", "habit"])
            for text in ["1", "d", ""] { #expect(await Self.answer(studio, run, holder, text).status == 200) }
            #expect(await studio.send("POST", "/api/run/take", Self.json(["run": run])).status == 409)
        }
    }
    /// A run whose first habit was passed over (an earlier run did it), quit or killed, read
    /// back from the history: its steps, summary and prompt are the live run's, and the
    /// resume offer stands at the step the read-back prompts.
    @Test(arguments: [false, true]) func aRunReadBackKeepsItsPassedOverSteps(killed: Bool) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let day = "2026-11-23"
            let (first, firstHolder, _) = try await Self.start(studio, ["date": day])
            for text in ["d", "q"] { #expect(await Self.answer(studio, first, firstHolder, text).status == 200) }
            let run: Int
            var live: [String: Any] = [:]
            if killed {
                // What a killed process leaves: its steps committed, no result.
                let loaded = RoutineLoader.load(SourceFile(name: studio.path, text: Self.routine))
                let historyPath = try #require(studio.historyPath)
                let store = try #require(try HistoryStore.open(historyPath, create: false))
                let date = try #require(CalendarDate(day))
                var history = RunHistory(
                    routine: loaded.routine, source: loaded.file.bytes, path: studio.path, date: date,
                    store: store, warn: { Issue.record("\($0.message)") }, note: { _ in })
                var stepper = RunStepper(history.begin(nil), interactive: true)
                let recorder = try #require(history.recorder)
                stepper.begin(emit: { event, run in recorder.observe(event, run) })
                stepper.take(.line("15"), emit: { event, run in recorder.observe(event, run) })
                run = Int(recorder.runID)
            } else {
                let (second, holder, body) = try await Self.start(studio, ["date": day, "fresh": true])
                #expect(Self.prompt(body) == "pushups")
                #expect(await Self.answer(studio, second, holder, "15").status == 200)
                live = try Self.object(await Self.answer(studio, second, holder, "q"))
                run = second
            }
            let shown = try Self.object(await studio.get("/api/run/\(run)"))
            let steps = try #require(shown["steps"] as? [[String: Any]], "\(shown)")
            #expect(steps.map { $0["node"] as? String } == ["water", "pushups"])
            #expect(steps.map { $0["result"] as? String } == ["not-scheduled", "done"])
            #expect(steps.first?["reason"] != nil)
            if killed {
                #expect(shown["result"] is NSNull)
                #expect(shown["summary"] is NSNull)
                let prompt = try #require(shown["prompt"] as? [String: Any])
                #expect(prompt["node"] as? String == "mood")
                let offer = try #require(try Self.object(await studio.get("/api/run?date=\(day)"))["offer"] as? [String: Any])
                #expect(offer["run"] as? Int == run)
                #expect(offer["step"] as? Int == prompt["step"] as? Int)
            } else {
                #expect(shown["result"] as? String == "quit")
                let summary = try #require(shown["summary"] as? [String: Any])
                let liveSummary = try #require(live["summary"] as? [String: Any])
                #expect(summary["lines"] as? [String] == liveSummary["lines"] as? [String])
                #expect(summary["done"] as? Int == 1)
                #expect(shown["steps"] as? NSArray == live["steps"] as? NSArray)
            }
        }
    }
}
