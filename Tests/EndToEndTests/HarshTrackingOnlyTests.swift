import Foundation
import Testing

/// What an import from harsh makes of its habits tracked only (frequency 0).
@Suite(.serialized)
struct HarshTrackingOnlyTests {
    func harsh(_ dir: URL, habits: String, log: String) throws -> URL {
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(habits.utf8).write(to: folder.appendingPathComponent("habits"))
        try Data(log.utf8).write(to: folder.appendingPathComponent("log"))
        return folder
    }

    /// The status of each habit on each day of `stats --json`, as "node date" to status.
    func statuses(_ dir: URL, history: String, since: String, until: String) throws -> [String: String] {
        let stats = try execute(["stats", "me.rt", "--history", history, "--since", since, "--until", until, "--json"], in: dir)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], "\(stats.stderr)")
        var result: [String: String] = [:]
        for habit in json["habits"] as? [[String: Any]] ?? [] {
            for day in habit["days"] as? [[String: Any]] ?? [] {
                result["\(habit["id"] ?? "") \(day["date"] ?? "")"] = day["status"] as? String
            }
        }
        return result
    }

    /// harsh's frequency 0: never due (a run never offers it, no day is missed), yet logged.
    @Test func aHabitTrackedOnlyIsNeverDueButLogged() throws {
        let dir = try temporaryDirectory()
        let folder = try harsh(dir, habits: "Meditated: 1\nWeight: 0\n", log: "2024-03-01 : Weight : y\n2024-03-01 : Meditated : y\n")
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try execute(["history", "import", "--from", "harsh", folder.path, "--routine", "me.rt", "--history", history], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("2 habits, 2 days; 1 habit tracked only, never due (left out of 'start'; 'routine done' logs it)\n"),
            "\(result.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("me.rt"), encoding: .utf8)
        #expect(
            text.contains("start -> meditated\n")
                && text.contains("# Tracked only: never due, so not in 'start'; log it with 'routine done'\nhabit weight \"Weight\"\n"), "\(text)")
        let check = try execute(["check", "me.rt"], in: dir)
        #expect(check.status == 0 && check.stderr.contains("W001"), "\(check.stderr)")

        let today = try execute(["today", "me.rt", "--date", "2024-03-02", "--json", "--history", history], in: dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [String: Any], "\(today.stderr)")
        let habits = try #require((object["routines"] as? [[String: Any]])?.first?["habits"] as? [[String: Any]])
        let status = Dictionary(
            uniqueKeysWithValues: habits.map { ($0["node"] as? String ?? "", "\($0["status"] ?? "") \($0["reason"] ?? "-")") })
        #expect(status["meditated"] == "due -" && status["weight"] == "not-due tracked-only", "\(status)")
        #expect(object["due"] as? Int == 1 && object["maybe"] as? Int == 0, "\(object)")
        let words = try execute(["today", "me.rt", "--date", "2024-03-02", "--history", history], in: dir).stdout
        let line = words.split(separator: "\n").first { $0.contains("Weight") } ?? ""
        #expect(
            line.hasPrefix("  not due  Weight") && line.hasSuffix("tracked only: no way from 'start' leads there; 'routine done' logs it"),
            "\(words)")
        let run = try execute(["run", "me.rt", "--date", "2024-03-02", "--answers", "-", "--history", history], stdin: "done\n\n", in: dir)
        #expect(run.status == 0 && !run.stdout.contains("Weight") && !run.stderr.contains("Weight"), "\(run.stdout)\(run.stderr)")
        let done = try execute(["done", "me.rt", "weight", "--date", "2024-03-03", "--history", history], in: dir)
        #expect(done.status == 0, "\(done.stderr)")

        // 2024-03-04 has no record at all; the window ends at the last day recorded, 03-05.
        let logged = try execute(["done", "me.rt", "meditated", "--date", "2024-03-05", "--history", history], in: dir)
        #expect(logged.status == 0, "\(logged.stderr)")
        let days = try statuses(dir, history: history, since: "2024-03-01", until: "2024-03-05")
        #expect(days["weight 2024-03-01"] == "done" && days["weight 2024-03-03"] == "done", "\(days)")
        #expect(days["weight 2024-03-02"] == "not-due" && days["weight 2024-03-04"] == "not-due", "never due, never unknown: \(days)")
        #expect(days["meditated 2024-03-04"] == "missed", "a daily habit is missed on a day without a record: \(days)")
    }
}
