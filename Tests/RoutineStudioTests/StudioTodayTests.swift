import Foundation
import RoutineHistory
import RoutineKit
import Testing

@testable import RoutineStudio

/// `GET /api/today` and `POST /api/log`: the day's shape, logs, each refusal of `routine done`,
/// `--no-history`, and the live channel's history events.
@Suite(.serialized)
struct StudioTodayTests {
    /// Monday 2026-11-23 to Wednesday 2026-11-25 are the days used.
    static let routine = """
        routine "Logs"
        habit water "Glass of water" -> pushups
        habit pushups "Push-ups" target 20 reps -> run
        habit run "Run" on mon wed fri -> read
        habit read "Read" 2 per week -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
        habit gym "Gym"
        habit nap "Nap"

        """

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
    }

    static func habits(_ day: [String: Any]) -> [String: [String: Any]] {
        let routines = day["routines"] as? [[String: Any]] ?? []
        let list = routines.first?["habits"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["node"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func theDayHasTheShapeOfTodayJSON() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let answer = await studio.get("/api/today?date=2026-11-24")
            #expect(answer.status == 200)
            let day = try Self.object(answer)
            #expect(day["date"] as? String == "2026-11-24")
            for key in ["due", "done", "skipped", "pending", "maybe", "percentage"] { #expect(day[key] is Int, "\(key)") }
            #expect(day["class"] as? String == "none")
            let routines = try #require(day["routines"] as? [[String: Any]])
            #expect(routines.map { $0["routine"] as? String } == ["Logs"])
            let habits = Self.habits(day)
            #expect(habits["water"]?["status"] as? String == "due")
            #expect(habits["water"]?["title"] as? String == "Glass of water")
            #expect(habits["pushups"]?["target"] as? Double == 20)
            #expect(habits["pushups"]?["unit"] as? String == "reps")
            #expect(habits["run"]?["status"] as? String == "not-due")
            #expect(habits["run"]?["reason"] as? String == "not-scheduled")
            #expect(habits["gym"]?["status"] as? String == "maybe")
            #expect(await studio.get("/api/today?date=2026-13-01").status == 400)
            #expect(await studio.get("/api/today").status == 200)
        }
    }

    @Test func aLogIsRecordedAndTheNewDayAnswered() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let done = await studio.send("POST", "/api/log", #"{"habit": "water", "date": "2026-11-23"}"#)
            #expect(done.status == 200, "\(done.body)")
            let water = try #require(Self.habits(try Self.object(done))["water"])
            #expect(water["status"] as? String == "done")
            #expect(water["by"] as? String == "log")
            let counted = await studio.send("POST", "/api/log", #"{"habit": "pushups", "value": 15, "seconds": 90, "date": "2026-11-23"}"#)
            let pushups = try #require(Self.habits(try Self.object(counted))["pushups"])
            #expect(pushups["value"] as? Double == 15)
            #expect(pushups["seconds"] as? Double == 90)
            let skipped = await studio.send("POST", "/api/log", #"{"habit": "run", "skip": true, "date": "2026-11-23"}"#)
            #expect(Self.habits(try Self.object(skipped))["run"]?["status"] as? String == "skipped")
            // The same history as the terminal's: the day read back fresh agrees.
            let day = try Self.object(await studio.get("/api/today?date=2026-11-23"))
            #expect(day["done"] as? Int == 2)
            #expect(day["skipped"] as? Int == 1)
            let undone = await studio.send("POST", "/api/log", #"{"habit": "water", "undo": true, "date": "2026-11-23"}"#)
            #expect(undone.status == 200)
            #expect(Self.habits(try Self.object(undone))["water"]?["status"] as? String == "due")
            let forced = await studio.send("POST", "/api/log", #"{"habit": "run", "force": true, "date": "2026-11-24"}"#)
            #expect(Self.habits(try Self.object(forced))["run"]?["status"] as? String == "done")
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        /// Logs made first, each a body.
        var before: [String] = []
        var body: String
        var status: Int
        var code: String?
        var message: String?
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "already done", before: [#"{"habit": "water", "date": "2026-11-23"}"#], body: #"{"habit": "water", "date": "2026-11-23"}"#,
            status: 409, code: "E501"),
        Refusal(
            name: "already skipped", before: [#"{"habit": "water", "skip": true, "date": "2026-11-23"}"#],
            body: #"{"habit": "water", "skip": true, "date": "2026-11-23"}"#, status: 409, code: "E501"),
        Refusal(
            name: "not scheduled", body: #"{"habit": "run", "date": "2026-11-24"}"#, status: 422, code: "E502",
            message: "'run' (Run) is not scheduled on Tuesdays, only on Mondays, Wednesdays and Fridays"),
        Refusal(
            name: "quota met", before: [#"{"habit": "read", "date": "2026-11-23"}"#, #"{"habit": "read", "date": "2026-11-24"}"#],
            body: #"{"habit": "read", "date": "2026-11-25"}"#, status: 422, code: "E503"),
        Refusal(name: "a question", body: #"{"habit": "mood", "date": "2026-11-23"}"#, status: 422, code: "E504"),
        Refusal(name: "unknown", body: #"{"habit": "nope", "date": "2026-11-23"}"#, status: 422, code: "E505"),
        Refusal(name: "value needed", body: #"{"habit": "pushups", "date": "2026-11-23"}"#, status: 422, code: "E506"),
        Refusal(name: "nothing to undo", body: #"{"habit": "water", "undo": true, "date": "2026-11-23"}"#, status: 422, code: "E507"),
        Refusal(name: "not JSON", body: "water", status: 400, code: "E601"),
        Refusal(name: "no habit", body: #"{"date": "2026-11-23"}"#, status: 400, message: "'habit' is missing"),
        Refusal(name: "a foreign member", body: #"{"habit": "water", "file": "/etc/passwd"}"#, status: 400),
        Refusal(name: "a bad date", body: #"{"habit": "water", "date": "2026-02-30"}"#, status: 400),
        Refusal(name: "skip and undo", body: #"{"habit": "water", "skip": true, "undo": true}"#, status: 400),
        Refusal(name: "a skip with a value", body: #"{"habit": "pushups", "skip": true, "value": 3}"#, status: 400),
        Refusal(name: "a negative value", body: #"{"habit": "pushups", "value": -1}"#, status: 400),
        Refusal(name: "a value as text", body: #"{"habit": "pushups", "value": "20"}"#, status: 400),
        Refusal(name: "skip as a number", body: #"{"habit": "water", "skip": 1}"#, status: 400),
    ]

    @Test(arguments: refusals)
    func refusal(_ c: Refusal) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            for body in c.before { #expect(await studio.send("POST", "/api/log", body).status == 200, "\(body)") }
            let before = try Self.object(await studio.get("/api/today?date=2026-11-23"))
            let answer = await studio.send("POST", "/api/log", c.body)
            #expect(answer.status == c.status, "\(answer.body)")
            let error = try #require(try Self.object(answer)["error"] as? [String: Any])
            if let code = c.code { #expect(error["code"] as? String == code) }
            if let message = c.message { #expect(error["message"] as? String == message) }
            // Nothing was written.
            let after = try Self.object(await studio.get("/api/today?date=2026-11-23"))
            #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
            if c.status != 400 { #expect(try Self.object(answer)["state"] is [String: Any]) }
        }
    }

    @Test func withoutAHistoryTheDayShowsAndLogsAreRefused() async throws {
        try await StudioFixture.with(Self.routine) { studio in
            let day = await studio.get("/api/today?date=2026-11-23")
            #expect(day.status == 200)
            #expect(try Self.object(day)["done"] as? Int == 0)
            let answer = await studio.send("POST", "/api/log", #"{"habit": "water"}"#)
            #expect(answer.status == 422)
            let error = try #require(try Self.object(answer)["error"] as? [String: Any])
            #expect(error["code"] as? String == "E508")
            #expect((error["message"] as? String)?.hasPrefix("nothing can be recorded") == true)
        }
    }

    @Test func aLogFromElsewhereIsAnnouncedOnTheLiveChannel() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let history = try #require(studio.historyPath)
            let stream = await RawEventStream.open(port: studio.port, headers: studio.pageHeaders)
            #expect(await stream.nextData() == "{\"version\":1}")
            // As `routine done` in a terminal would: the same library call, another connection.
            let routine = RoutineLoader.load(SourceFile(name: studio.path, bytes: Array(Self.routine.utf8)), format: .rt).routine
            let store = try #require(try HistoryStore.open(history, create: true))
            let logged = try store.log(LogRequest(id: "water"), of: routine, on: CalendarDate("2026-11-23")!, path: studio.path, sourceHash: "x")
            #expect((try? logged.get()) != nil)
            let event = await stream.nextData()
            #expect(event?.hasPrefix("{\"history\":") == true, "\(event ?? "nothing")")
        }
    }
}
