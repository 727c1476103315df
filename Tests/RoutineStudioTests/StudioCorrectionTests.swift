import Foundation
import RoutineHistory
import RoutineKit
import Testing

@testable import RoutineStudio

/// `GET /api/day`, `POST /api/correct` and its undo, and a run deleted and put back: the JSON
/// of `log --date --json`, the refusals, and an export unchanged by a delete and its undo.
@Suite(.serialized)
struct StudioCorrectionTests {
    static let routine = StudioTodayTests.routine
    static let monday = "2026-11-23"

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] { try StudioTodayTests.object(answer) }

    /// The code of a refusal, nil for anything else.
    static func code(_ answer: RawHTTP.Answer) -> String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    static func store(_ studio: StudioFixture, create: Bool = true) throws -> HistoryStore {
        let path = try #require(studio.historyPath)
        return try #require(try HistoryStore.open(path, create: create, readOnly: !create))
    }

    /// A run of Monday: water done, push-ups 12, run skipped; completed.
    static func recordRun(_ studio: StudioFixture) throws -> Int64 {
        let store = try Self.store(studio)
        let start = try #require(Timestamp("2026-11-23T06:00:00.000Z"))
        func step(_ n: Int, _ node: String, _ title: String, _ result: RecordedStep.Result, _ value: Double? = nil, target: Double? = nil)
            -> StoredStep
        {
            StoredStep(
                decision: RecordedStep(step: n, node: node, kind: .habit, result: result, value: value), title: title, target: target,
                unit: target == nil ? nil : "reps", decidedAt: Timestamp(milliseconds: start.milliseconds + Int64(n) * 60_000), seconds: 30)
        }
        let run = StoredRun(
            routine: "Logs", path: studio.path, sourceHash: "x", date: monday, startedAt: start, utcOffset: 0,
            endedAt: Timestamp(milliseconds: start.milliseconds + 600_000), result: .completed, reachedEnd: false,
            steps: [
                step(1, "water", "Glass of water", .done), step(2, "pushups", "Push-ups", .done, 12, target: 20), step(3, "run", "Run", .skipped),
            ])
        #expect(try store.insertRuns([run]) == 1)
        return try #require(try store.runs(RunFilter(routine: "Logs", since: monday, until: monday)).first?.id)
    }

    /// What `history export` writes: every run oldest first, then the days off.
    static func export(_ studio: StudioFixture) throws -> String {
        let store = try Self.store(studio, create: false)
        return try store.runs(RunFilter(oldestFirst: true)).map { HistoryJSON.encode($0).text + "\n" }.joined()
            + store.daysOff().map { HistoryJSON.encode($0).text + "\n" }.joined()
    }

    static func steps(_ day: [String: Any], run: Int64) -> [[String: Any]] {
        let runs = day["runs"] as? [[String: Any]] ?? []
        let found = runs.first { ($0["id"] as? Int).map(Int64.init) == run }
        return (found?["run"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
    }

    @Test func theDayIsTheJSONOfLogDate() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let id = try Self.recordRun(studio)
            _ = await studio.send("POST", "/api/log", #"{"habit": "read", "date": "2026-11-23"}"#)
            let answer = await studio.get("/api/day?date=2026-11-23")
            #expect(answer.status == 200)
            let day = try Self.object(answer)
            #expect(day["date"] as? String == Self.monday)
            #expect(day["daysOff"] as? [Any] != nil)
            let runs = try #require(day["runs"] as? [[String: Any]])
            #expect(runs.count == 2)
            // Each member `run` is byte for byte a line of `log FILE --date D --json`, newest first
            // (followed by the values' texts the page shows).
            let store = try Self.store(studio, create: false)
            let lines = try store.runs(RunFilter(routine: "Logs", since: Self.monday, until: Self.monday)).map { HistoryJSON.encode($0).text }
            let text = answer.body
            for line in lines { #expect(text.contains(",\"run\":" + line + ",\"values\":"), "\(line)") }
            #expect(runs.last?["id"] as? Int == Int(id))
            #expect(Self.steps(day, run: id).map { $0["result"] as? String } == ["done", "done", "skipped"])
            // An empty day, and the refusals.
            #expect(try Self.object(await studio.get("/api/day?date=2026-11-20"))["runs"] as? [Any] != nil)
            #expect(await studio.get("/api/day?date=2026-02-30").status == 400)
            #expect(await studio.get("/api/day").status == 400)
            #expect(await studio.get("/api/day?date=2026-11-23&path=/etc/passwd").status == 400)
        }
    }

    @Test func aRoutineWithErrorsHasNoDay() async throws {
        try await StudioFixture.with("routine \"Broken\"\nhabit a \"A\" -> nowhere\n", history: true) { studio in
            let answer = await studio.get("/api/day?date=2026-11-23")
            #expect(answer.status == 422)
            #expect(await studio.send("POST", "/api/correct", #"{"run": 1, "step": 1, "result": "done"}"#).status == 422)
        }
    }

    @Test func aSkippedStepIsCorrectedToDoneAndBack() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let id = try Self.recordRun(studio)
            let done = await studio.send("POST", "/api/correct", #"{"run": \#(id), "step": 3, "result": "done"}"#)
            #expect(done.status == 200, "\(done.body)")
            let day = try Self.object(done)
            #expect(Self.steps(day, run: id)[2]["result"] as? String == "done")
            let correction = try #require(day["correction"] as? [String: Any])
            #expect(correction["node"] as? String == "run")
            #expect((correction["before"] as? [String: Any])?["result"] as? String == "skipped")
            // The amendment is recorded with when it was made, as `routine amend` records it.
            let runs = try #require(day["runs"] as? [[String: Any]])
            let amendments = try #require((runs[0]["run"] as? [String: Any])?["amendments"] as? [[String: Any]])
            #expect(amendments.first?["step"] as? Int == 3)
            #expect(amendments.first?["at"] is String)
            // A value changed; the same result again is refused as already done (409).
            let value = await studio.send("POST", "/api/correct", #"{"run": \#(id), "step": 2, "value": 25}"#)
            #expect(Self.steps(try Self.object(value), run: id)[1]["value"] as? Double == 25)
            let same = await studio.send("POST", "/api/correct", #"{"run": \#(id), "step": 2, "value": 25}"#)
            #expect(same.status == 409)
            #expect(Self.code(same) == "E501")
            // Undone newest first; undoing a step that is not the newest is refused (409).
            let wrong = await studio.send("POST", "/api/correct/undo", #"{"run": \#(id), "step": 3}"#)
            #expect(wrong.status == 409)
            let undone = await studio.send("POST", "/api/correct/undo", #"{"run": \#(id), "step": 2}"#)
            #expect(undone.status == 200)
            #expect(Self.steps(try Self.object(undone), run: id)[1]["value"] as? Double == 12)
            let back = await studio.send("POST", "/api/correct/undo", "{}")
            #expect(Self.steps(try Self.object(back), run: id)[2]["result"] as? String == "skipped")
            let none = await studio.send("POST", "/api/correct/undo", "{}")
            #expect(none.status == 422)
            #expect(Self.code(none) == "E507")
            let after = try Self.object(await studio.get("/api/day?date=2026-11-23"))
            let run = (after["runs"] as? [[String: Any]])?.first?["run"] as? [String: Any]
            #expect(run?["amendments"] == nil)
        }
    }

    @Test func aMissingHabitIsAddedAsALog() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            _ = try Self.recordRun(studio)
            let added = await studio.send("POST", "/api/correct", #"{"date": "2026-11-23", "habit": "gym", "result": "done", "seconds": 600}"#)
            #expect(added.status == 200, "\(added.body)")
            let day = try Self.object(added)
            #expect((day["correction"] as? [String: Any])?["added"] as? Bool == true)
            let log = try #require((day["runs"] as? [[String: Any]])?.first?["run"] as? [String: Any])
            #expect(log["kind"] as? String == "log")
            #expect((log["steps"] as? [[String: Any]])?.first?["seconds"] as? Double == 600)
            let undone = await studio.send("POST", "/api/correct/undo", "{}")
            #expect((try Self.object(undone)["runs"] as? [Any])?.count == 1)
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var body: String
        var status: Int
        var code: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        .init(name: "not JSON", body: "done", status: 400, code: "E601"),
        .init(name: "unknown member", body: #"{"run": 1, "step": 3, "result": "done", "path": "x"}"#, status: 400, code: "E601"),
        .init(name: "neither result nor value", body: #"{"run": 1, "step": 3}"#, status: 400, code: "E601"),
        .init(name: "another result", body: #"{"run": 1, "step": 3, "result": "maybe"}"#, status: 400, code: "E601"),
        .init(name: "skipped with a value", body: #"{"run": 1, "step": 2, "result": "skipped", "value": 3}"#, status: 400, code: "E601"),
        .init(name: "a value out of range", body: #"{"run": 1, "step": 2, "value": -1}"#, status: 400, code: "E601"),
        .init(
            name: "both kinds", body: #"{"run": 1, "step": 2, "habit": "water", "date": "2026-11-23", "result": "done"}"#, status: 400, code: "E601"),
        .init(name: "a bad date", body: #"{"habit": "water", "date": "2026-11-31", "result": "done"}"#, status: 400, code: "E601"),
        .init(name: "no such run", body: #"{"run": 99, "step": 1, "result": "done"}"#, status: 409, code: "E509"),
        .init(name: "no such step", body: #"{"run": 1, "step": 9, "result": "done"}"#, status: 409, code: "E509"),
        .init(name: "a value for a habit without a target", body: #"{"run": 1, "step": 1, "value": 3}"#, status: 422, code: "E506"),
        .init(name: "done without the value of a numeric habit", body: #"{"run": 1, "step": 2, "result": "done"}"#, status: 422, code: "E506"),
        .init(name: "already skipped", body: #"{"run": 1, "step": 3, "result": "skipped"}"#, status: 409, code: "E501"),
        .init(name: "an unknown habit added", body: #"{"habit": "watr", "date": "2026-11-23", "result": "done"}"#, status: 422, code: "E505"),
        .init(name: "a question added", body: #"{"habit": "mood", "date": "2026-11-23", "result": "done"}"#, status: 422, code: "E504"),
    ]

    @Test(arguments: refusals) func aCorrectionIsRefused(_ c: Refusal) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            #expect(try Self.recordRun(studio) == 1)
            let before = try Self.export(studio)
            let answer = await studio.send("POST", "/api/correct", c.body)
            #expect(answer.status == c.status, "\(answer.body)")
            #expect(Self.code(answer) == c.code)
            #expect(try Self.export(studio) == before, "nothing is written")
        }
    }

    @Test func withoutAHistoryNothingIsCorrected() async throws {
        try await StudioFixture.with(Self.routine, history: false) { studio in
            #expect(await studio.get("/api/day?date=2026-11-23").status == 200)
            for (path, body) in [
                ("/api/correct", #"{"run": 1, "step": 1, "result": "done"}"#), ("/api/correct/undo", "{}"), ("/api/run/delete", #"{"run": 1}"#),
            ] {
                let answer = await studio.send("POST", path, body)
                #expect(answer.status == 422, "\(path)")
                #expect(Self.code(answer) == "E508")
            }
        }
    }

    @Test func aDeletedRunComesBackAsItWas() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let id = try Self.recordRun(studio)
            // An amendment too: it goes with the run and comes back with it.
            _ = await studio.send("POST", "/api/correct", #"{"run": \#(id), "step": 3, "result": "done"}"#)
            _ = await studio.send("POST", "/api/log", #"{"habit": "read", "date": "2026-11-23"}"#)
            let before = try Self.export(studio)
            let deleted = await studio.send("POST", "/api/run/delete", #"{"run": \#(id)}"#)
            #expect(deleted.status == 200, "\(deleted.body)")
            let day = try Self.object(deleted)
            #expect((day["runs"] as? [Any])?.count == 1)
            let about = try #require(day["deleted"] as? [String: Any])
            #expect(about["steps"] as? Int == 3)
            #expect(about["date"] as? String == Self.monday)
            #expect((about["line"] as? [String: Any])?["amendments"] != nil)
            #expect(try Self.export(studio) != before)
            #expect(await studio.send("POST", "/api/run/delete", #"{"run": \#(id)}"#).status == 409)
            let restored = await studio.send("POST", "/api/run/restore", #"{"run": \#(id)}"#)
            #expect(restored.status == 200, "\(restored.body)")
            #expect((try Self.object(restored)["restored"] as? [String: Any])?["run"] as? Int == Int(id))
            #expect(try Self.export(studio) == before)
            // Put back once: a second restore has nothing to put back, and the amendment undoes as before.
            let again = await studio.send("POST", "/api/run/restore", #"{"run": \#(id)}"#)
            #expect(again.status == 409)
            #expect(Self.code(again) == "E509")
            let undone = await studio.send("POST", "/api/correct/undo", #"{"run": \#(id), "step": 3}"#)
            #expect(undone.status == 200)
        }
    }

    @Test func aRunThatHasNotEndedIsNotDeleted() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let store = try Self.store(studio)
            let going = try store.insertRun(
                StoredRun(
                    routine: "Logs", path: studio.path, sourceHash: "x", date: Self.monday, startedAt: Timestamp(milliseconds: 1_795_000_000_000),
                    utcOffset: 0))
            let answer = await studio.send("POST", "/api/run/delete", #"{"run": \#(going.id)}"#)
            #expect(answer.status == 409)
            #expect(await studio.send("POST", "/api/run/delete", #"{"run": "one"}"#).status == 400)
            #expect(await studio.send("POST", "/api/run/restore", #"{}"#).status == 400)
        }
    }

    static let answers = """
        routine "Answers"
        habit tea "Tea" -> swim
        habit swim "Swim" 3 per week -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
        habit gym "Gym"
        habit nap "Nap"

        """

    /// A run of `date`: tea done, swim skipped, `option` answered, and the habit it leads to done.
    static func answeredRun(_ studio: StudioFixture, _ date: String, option: Int) throws -> Int64 {
        let store = try Self.store(studio)
        let start = try #require(Timestamp(date + "T06:00:00.000Z"))
        func step(_ n: Int, _ node: String, _ kind: RoutineNode.Kind, _ result: RecordedStep.Result, option: Int? = nil) -> StoredStep {
            StoredStep(
                decision: RecordedStep(
                    step: n, node: node, kind: kind, result: result, option: option, optionText: option.map { ["Good", "Bad"][$0] }),
                title: node, decidedAt: Timestamp(milliseconds: start.milliseconds + Int64(n) * 1000), seconds: 1)
        }
        let run = StoredRun(
            routine: "Answers", path: studio.path, sourceHash: "x", date: date, startedAt: start, utcOffset: 0,
            endedAt: Timestamp(milliseconds: start.milliseconds + 60_000), result: .completed,
            steps: [
                step(1, "tea", .habit, .done), step(2, "swim", .habit, .skipped), step(3, "mood", .question, .answered, option: option),
                step(4, option == 0 ? "gym" : "nap", .habit, .done),
            ])
        #expect(try store.insertRuns([run]) == 1)
        return try #require(try store.runs(RunFilter(routine: "Answers", since: date, until: date)).first?.id)
    }

    /// An answer corrected by its step: the refusals (no option, the same one), the change
    /// with what it held, the day's `missing` replayed with it, and the undo.
    @Test func anAnswerIsCorrectedOnItsStep() async throws {
        try await StudioFixture.with(Self.answers, history: true) { studio in
            let id = try Self.answeredRun(studio, Self.monday, option: 0)
            let before = try Self.export(studio)
            func missing() async throws -> [String] {
                let day = try Self.object(await studio.get("/api/day?date=\(Self.monday)"))
                return (day["missing"] as? [[String: Any]])?.compactMap { $0["node"] as? String } ?? []
            }
            #expect(try await missing() == [])
            let refusals: [(String, Int, String)] = [
                (#"{"run": \#(id), "step": 3, "answer": "Maybe"}"#, 422, "E510"),
                (#"{"run": \#(id), "step": 3, "answer": "1"}"#, 422, "E511"),
                (#"{"run": \#(id), "step": 1, "answer": "2"}"#, 409, "E509"),
                (#"{"run": \#(id), "step": 3, "answer": "2", "result": "done"}"#, 400, "E601"),
                (#"{"date": "2026-11-23", "habit": "mood", "answer": "2"}"#, 400, "E601"),
            ]
            for (body, status, code) in refusals {
                let answer = await studio.send("POST", "/api/correct", body)
                #expect(answer.status == status && Self.code(answer) == code, "\(body): \(answer.body)")
            }
            #expect(try Self.export(studio) == before, "a refusal writes nothing")
            let changed = await studio.send("POST", "/api/correct", #"{"run": \#(id), "step": 3, "answer": "bad"}"#)
            #expect(changed.status == 200, "\(changed.body)")
            let correction = try #require(try Self.object(changed)["correction"] as? [String: Any])
            #expect((correction["before"] as? [String: Any])?["option"] as? String == "Good")
            #expect(Self.steps(try Self.object(changed), run: id)[2]["option"] as? String == "Bad")
            // "Bad" opens nap, which nobody did: missed, so offered; gym is ruled out.
            #expect(try await missing() == ["nap"])
            #expect(await studio.send("POST", "/api/correct/undo", #"{"run": \#(id), "step": 3}"#).status == 200)
            #expect(try Self.export(studio) == before)
        }
    }

    /// What the day view offers as due but not recorded is what `stats` calls missed: a
    /// `3 per week` habit is not missing on a Tuesday of a week that fell short, only on the
    /// week's last days, where its shortfall falls.
    @Test func aWeeklyQuotaIsMissingWhereTheStatisticsSay() async throws {
        try await StudioFixture.with(Self.answers, history: true) { studio in
            _ = try Self.answeredRun(studio, "2026-11-02", option: 0)
            func missing(_ date: String) async throws -> [String] {
                let day = try Self.object(await studio.get("/api/day?date=\(date)"))
                return (day["missing"] as? [[String: Any]])?.compactMap { $0["node"] as? String } ?? []
            }
            #expect(try await missing("2026-11-03") == ["tea"], "no run: tea is on every way; swim's week is not judged day by day")
            #expect(try await missing("2026-11-08") == ["tea", "swim"], "Sunday takes a share of swim's shortfall")
            let csv = try Self.statsCSV(studio, since: "2026-11-02", until: "2026-11-09")
            #expect(csv.contains("2026-11-03,swim,not-due") && csv.contains("2026-11-08,swim,missed"), "\(csv)")
        }
    }

    /// `stats --csv` of the studio's routine and history, as the figures' rule gives it.
    static func statsCSV(_ studio: StudioFixture, since: String, until: String) throws -> String {
        let store = try Self.store(studio, create: false)
        let routine = RoutineLoader.load(SourceFile(name: "a.rt", text: answers), format: .rt).routine
        let window = DateWindow(since: CalendarDate(since), until: CalendarDate(until))
        var text = ""
        StatsJSON.csv(try StatsLoading(of: routine, in: window, store: store).report) { text += $0 }
        return text
    }
}
