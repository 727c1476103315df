import Foundation
import Testing

@testable import RoutineStudio

/// `GET /api/graph-stats`: the figures `routine graph --stats` draws and `routine stats`
/// prints, on a history backfilled by the built binary; the refusals of its dates; a routine
/// with errors; `--no-history`.
@Suite(.serialized)
struct StudioGraphStatsTests {
    static let routine = """
        routine "Graph"
        habit water "Glass of water" -> stretch
        habit stretch "Stretch" -> mood
        question mood "Mood?"
          "Good" -> run
          "Tired" -> nap
          "Sick"
        habit run "Run"
        habit nap "Nap"
        habit never "Never reached"

        """

    /// Runs of 2026-11-02 to 2026-11-07: done and skipped habits, each answer but "Sick".
    static let backfill: [(date: String, answers: [String])] = [
        ("2026-11-02", ["d", "d", "1", "d"]), ("2026-11-03", ["d", "s", "2", "d"]),
        ("2026-11-04", ["s", "d", "1", "s"]), ("2026-11-06", ["d", "d", "1", "d"]),
        ("2026-11-07", ["d", "s", "2", "s"]),
    ]

    /// `routine ARGUMENTS` built beside the tests, with a home and XDG folders of its own.
    static func routine(_ arguments: [String], stdin: String = "") throws -> (out: String, status: Int32) {
        let result = try StudioRunBinary.run(arguments, input: stdin)
        return (result.stdout, result.status)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func nodes(_ answer: [String: Any]) -> [String: [String: Any]] {
        let list = answer["nodes"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func theFiguresAreThoseOfGraphStatsAndStats() async throws {
        try await StudioFixture.with(Self.routine, history: true) { studio in
            let history = try #require(studio.historyPath)
            for run in Self.backfill {
                let ran = try Self.routine(
                    ["run", studio.path, "--date", run.date, "--history", history], stdin: run.answers.joined(separator: "\n") + "\n")
                #expect(ran.status == 0, "run on \(run.date)")
            }
            let window = ["--since", "2026-11-01", "--until", "2026-11-08", "--history", history]
            let answer = await studio.get("/api/graph-stats?since=2026-11-01&until=2026-11-08")
            #expect(answer.status == 200, "\(answer.body)")
            let stats = try Self.object(answer.body)
            #expect(stats["runs"] as? Int == 5)
            #expect(stats["first"] as? String == "2026-11-01")
            #expect(stats["until"] as? String == "2026-11-08")
            #expect((stats["bands"] as? [[String: Any]])?.map { $0["label"] as? String } == ["0–19%", "20–39%", "40–59%", "60–79%", "80–100%"])
            let nodes = Self.nodes(stats)

            // Every habit's rate is `stats --json`'s rateAll (which that prints to 4 places).
            let printed = try Self.object(try Self.routine(["stats", studio.path, "--json"] + window).out)
            let habits = try #require(printed["habits"] as? [[String: Any]])
            for habit in habits {
                let id = try #require(habit["id"] as? String)
                let rate = (nodes[id]?["rate"] as? Double).map { ($0 * 10_000).rounded() / 10_000 }
                #expect(rate == habit["rateAll"] as? Double, "\(id)")
            }
            let rates = ["water", "stretch", "run", "nap"].map { nodes[$0]?["rate"] as? Double }
            #expect(rates.allSatisfy { $0 != nil } && Set(rates).count > 1, "\(rates)")

            // The fills and answer counts are those `graph --stats` draws.
            let dot = try Self.routine(["graph", studio.path, "--stats"] + window).out
            for (id, node) in nodes where node["color"] is String {
                let color = try #require(node["color"] as? String)
                #expect(dot.contains("fillcolor=\"\(color)\", tooltip=\"done on \(node["percent"] as? Int ?? -1)%"), "\(id) \(color)")
            }
            #expect(nodes["mood"]?["chosen"] as? [Int] == [3, 2, 0])
            #expect(dot.contains("Good · 3×") && dot.contains("Tired · 2×"), "\(dot)")
            #expect(nodes["never"]?["reached"] as? Bool == false)
            #expect(nodes["never"]?["rate"] is NSNull)
            #expect(nodes["water"]?["reached"] as? Bool == true)

            // A window without runs: nothing reached, no rate.
            let empty = try Self.object(await studio.get("/api/graph-stats?since=2026-11-20&until=2026-11-21").body)
            #expect(empty["runs"] as? Int == 0)
            #expect(Self.nodes(empty)["water"]?["reached"] as? Bool == false)
        }
    }

    @Test func datesErrorsAndNoHistoryAreRefusedOrEmpty() async throws {
        try await StudioFixture.with(Self.routine, history: false) { studio in
            let none = await studio.get("/api/graph-stats")
            #expect(none.status == 200)
            let stats = try Self.object(none.body)
            #expect(stats["runs"] as? Int == 0)
            #expect(Self.nodes(stats).count == 6)
            #expect(await studio.get("/api/graph-stats?since=2026-13-01").status == 400)
            let reversed = await studio.get("/api/graph-stats?since=2026-11-09&until=2026-11-01")
            #expect(reversed.status == 400)
            #expect(reversed.body.contains("since 2026-11-09 comes after until 2026-11-01"))
            #expect(await studio.get("/api/graph-stats?file=/etc/passwd").status == 400)
            try (Self.routine + "habit water \"Again\"\n").write(toFile: studio.path, atomically: true, encoding: .utf8)
            let broken = await studio.get("/api/graph-stats")
            #expect(broken.status == 422)
            #expect(broken.body.contains("E2"))
        }
    }
}
