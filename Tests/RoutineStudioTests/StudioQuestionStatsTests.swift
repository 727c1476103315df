import Foundation
import RoutineKit
import TestSupport
import Testing

@testable import RoutineStudio

/// `GET /api/stats` without the questions' habits tables, and `?question=ID` with one: on a
/// routine of 20,000 nodes from `routine-gen`, where every table whole was 175 MB; the
/// refusal of a node that is no question; the route's checks.
@Suite(.serialized)
struct StudioQuestionStatsTests {
    /// `routine-gen`'s routine of `count` nodes, its text; its answers (always the first
    /// option) are left beside it as `big.answers`.
    static func generated(_ count: Int, into folder: URL) throws -> String {
        let generator = BuiltBinary.url(of: "routine-gen")
        try #require(FileManager.default.isExecutableFile(atPath: generator.path), "routine-gen is built beside the tests")
        let prefix = folder.appendingPathComponent("big").path
        let process = Process()
        process.executableURL = generator
        process.arguments = ["\(count)", "--seed", "7", "--out", prefix]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try String(contentsOfFile: prefix + ".rt", encoding: .utf8)
    }

    static func object(_ answer: RawHTTP.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.status) \(answer.body.prefix(300))")
    }

    /// `path` asked with curl, as the page asks, given up after a generous 120 s (RawHTTP gives
    /// up after 10 s without a byte, which a debug build on a busy machine may take here).
    static func fetch(_ path: String, from studio: StudioFixture) async -> RawHTTP.Answer {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: body) }
        let arguments = [
            "-s", "--max-time", "120", "-o", body.path, "-w", "%{http_code}", "-H", "Authorization: Bearer \(StudioFixture.token)",
            "http://\(studio.host)\(path)",
        ]
        let status = await offThePool { () -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            guard (try? process.run()) != nil else { return "" }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let text = (try? String(contentsOf: body, encoding: .utf8)) ?? ""
        return RawHTTP.Answer(status: Int(status) ?? 0, headers: [], body: text)
    }

    /// Above what 14,000 habits' figures and days take; far below the tables whole.
    static let hugeAnswerBound = 16_000_000

    @Test func aHugeRoutinesStatisticsAnswerWithoutTheTablesAndOneTableOnRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try Self.generated(20_000, into: folder)
        // No drawing: `dot` on 20,000 nodes would only take a core from the statistics. The run
        // is recorded before the studio starts: watched, its 14,000 steps take minutes.
        let record = { (path: String, history: String?) in
            let run = StudioRunBinary.process(
                [
                    "run", path, "--date", "2026-11-23", "--history", try #require(history), "--answers",
                    folder.appendingPathComponent("big.answers").path,
                ])
            (run.standardInput, run.standardOutput, run.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice, FileHandle.nullDevice)
            try run.run()
            run.waitUntilExit()
            try #require(run.terminationStatus == 0)
        }
        try await StudioFixture.with(text, history: true, layoutLimit: .milliseconds(1), before: record) { studio in
            let stats = await Self.fetch("/api/stats?until=2026-11-25", from: studio)
            #expect(stats.status == 200)
            #expect(stats.body.utf8.count < Self.hugeAnswerBound, "\(stats.body.utf8.count) bytes")
            let questions = try #require(try Self.object(stats)["questions"] as? [[String: Any]])
            #expect(questions.count > 1_000)
            #expect(questions.allSatisfy { $0["habits"] == nil && $0["options"] != nil })
            let first = try #require(questions.first)
            #expect((first["answered"] as? [String: Any])?["all"] as? Int == 1)
            let id = try #require(first["id"] as? String)
            let one = await Self.fetch("/api/stats?until=2026-11-25&question=\(id)", from: studio)
            #expect(one.status == 200)
            let table = try Self.object(one)
            #expect(table["id"] as? String == id)
            #expect((table["habits"] as? [Any])?.count ?? 0 > 1_000, "every habit after the question")
        }
    }

    static let routine = """
        routine "Small"
        habit tea "Tea" -> mood
        question mood "Mood?"
          "Good" -> run
          "Bad" -> nap
        habit run "Run"
        habit nap "Nap"

        """

    /// A node that is no question, or none at all, is the catalogue's E014 with 404; the
    /// parameter takes the route's checks like any other.
    @Test(arguments: [
        ("a habit", "tea", "'tea' is not a question of 'Small'; its questions are 'mood'"),
        ("a typo", "moood", "'moood' is not a question of 'Small'; did you mean 'mood'?"),
    ])
    func aNodeThatIsNoQuestionIsNotFound(_ name: String, id: String, message: String) async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let answer = await studio.get("/api/stats?question=\(id)")
            #expect(answer.status == 404)
            let error = try #require(try Self.object(answer)["error"] as? [String: Any])
            #expect(error["code"] as? String == "E014")
            #expect(error["message"] as? String == message)
            let mood = await studio.get("/api/stats?question=mood")
            #expect(mood.status == 200)
            #expect(try Self.object(mood)["habits"] is [Any])
            let tokenless = await studio.get("/api/stats?question=mood", [("Host", studio.host)])
            #expect(tokenless.status == 401)
            let elsewhere = await studio.get(
                "/api/stats?question=mood", [("Host", "example.com"), ("Authorization", "Bearer \(StudioFixture.token)")])
            #expect(elsewhere.status == 403)
        }
    }
}
