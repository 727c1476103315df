import Foundation
import TestSupport
import Testing

@testable import RoutineStudio

/// A run deleted in the studio of one device and put back there, carried by real engines (git
/// and Syncthing) to a second device: it shows deleted there, then restored (export, `log`,
/// `stats`). A deletion racing an amendment of the same run on the other device: the deletion
/// wins on both, and the restore brings the amendment back (docs/sync.md).
@Suite(.serialized)
struct SyncDeletionEngineTests {
    static let routine = """
        routine "Sync"
        habit water "Glass of water" -> read
        habit read "Read" -> stretch
        habit stretch "Stretch"

        """
    static let monday = "2026-11-23"
    static let syncthingFound = (try? shell("command -v syncthing"))?.status == 0

    /// `sh -c SCRIPT` with the tests' HOME, to its end: its status and everything it printed.
    @discardableResult
    static func shell(_ script: String) throws -> (status: Int32, output: String) {
        let process = StudioRunBinary.process([])
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script + " 2>&1"]
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `shell`, on a thread of its own: git and Syncthing take seconds, which must not hold one
    /// of the threads the studio under test answers on.
    static func shellOffThePool(_ script: String) async throws -> (status: Int32, output: String) {
        try await offThePool { Result { try shell(script) } }.get()
    }

    /// The two devices: the laptop's history is the studio's, the desk's is its own.
    struct Devices {
        let studio: StudioFixture
        let desk: String
        var laptop: String { studio.historyPath! }

        @discardableResult
        func routine(_ history: String, _ arguments: [String], input: String = "") throws -> String {
            let result = try StudioRunBinary.run(arguments.map { $0 == "FILE" ? studio.path : $0 } + ["--history", history], input: input)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }

        /// What a person sees of the history: the export, the log, the week's statistics.
        func views(_ history: String) throws -> [String] {
            try routine(history, ["sync"])
            return [
                try routine(history, ["history", "export"]), try routine(history, ["log", "FILE"]),
                try routine(history, ["stats", "FILE", "--since", "2026-11-20", "--until", "2026-11-26"]),
            ]
        }

        /// The id of the day's run in the laptop's history, as the studio's day view gives it.
        func runID(on date: String) async throws -> Int {
            let day = await studio.send("GET", "/api/day?date=\(date)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(day.body.utf8)) as? [String: Any], "\(day.body)")
            let runs = try #require(object["runs"] as? [[String: Any]])
            let run = try #require(runs.first { ($0["run"] as? [String: Any])?["kind"] as? String != "log" }, "\(day.body)")
            return try #require(run["id"] as? Int)
        }

        func post(_ path: String, run id: Int) async {
            let answer = await studio.send("POST", path, #"{"run": \#(id)}"#)
            #expect(answer.status == 200, "\(path): \(answer.body)")
        }
    }

    /// The scenario, whatever carries the folders: `carry` brings each device's journal to the
    /// other's folder.
    static func deleteAndRestore(laptopFolder: String, deskFolder: String, work: URL, carry: () async throws -> Void) async throws {
        try await StudioFixture.with(routine, history: true) { studio in
            let d = Devices(studio: studio, desk: work.appendingPathComponent("desk.sqlite").path)
            try d.routine(d.laptop, ["sync", "init", laptopFolder, "--device", "laptop"])
            try d.routine(d.laptop, ["run", "FILE", "--date", monday], input: "d\nd\ns\n")
            try d.routine(d.laptop, ["done", "FILE", "water", "--date", "2026-11-24"])
            try await carry()
            try d.routine(d.desk, ["sync", "init", deskFolder, "--device", "desk"])
            let recorded = try d.views(d.laptop)
            #expect(try d.views(d.desk) == recorded)
            #expect(recorded[0].split(separator: "\n").count == 2, "\(recorded[0])")

            // Deleted in the laptop's studio: gone on the desk too.
            let id = try await d.runID(on: monday)
            await d.post("/api/run/delete", run: id)
            try await carry()
            let deleted = try d.views(d.desk)
            #expect(deleted[0].split(separator: "\n").count == 1 && !deleted[0].contains(monday), "\(deleted[0])")
            let deletedHere = try d.views(d.laptop)
            #expect(deleted != recorded && deleted == deletedHere)
            // Put back in the studio: back on the desk as it was.
            await d.post("/api/run/restore", run: id)
            try await carry()
            #expect(try d.views(d.desk) == recorded)
            #expect(try d.views(d.laptop) == recorded)

            // The laptop deletes the run while the desk, not yet told, amends it: the deletion
            // wins on both; the restore brings the desk's amendment back.
            let again = try await d.runID(on: monday)
            await d.post("/api/run/delete", run: again)
            try d.routine(d.desk, ["amend", "FILE", monday, "stretch", "done"])
            try await carry()
            let raced = try d.views(d.laptop)
            #expect(!raced[0].contains(monday), "the deletion wins: \(raced[0])")
            #expect(try d.views(d.desk) == raced)
            await d.post("/api/run/restore", run: again)
            try await carry()
            let back = try d.views(d.laptop)
            #expect(back[0].contains(#""node":"stretch","kind":"habit","title":"Stretch","result":"done""#), "\(back[0])")
            #expect(back[0].contains(#""amendments":[{"#), "\(back[0])")
            #expect(try d.views(d.desk) == back)
        }
    }

    @Test func throughGit() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sync-delete-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let git = "git -c user.name=t -c user.email=t@localhost -c init.defaultBranch=main -c commit.gpgsign=false"
        let bare = work.appendingPathComponent("bare.git").path
        func clone(_ device: String) -> String { work.appendingPathComponent("clone-\(device)").path }
        let started = try Self.shell(
            """
            \(git) init -q --bare '\(bare)' && \(git) clone -q '\(bare)' '\(clone("laptop"))' && cd '\(clone("laptop"))' && \
            \(git) commit -q --allow-empty -m start && \(git) push -q origin HEAD:main && \(git) clone -q '\(bare)' '\(clone("desk"))'
            """)
        try #require(started.status == 0, "\(started.output)")
        // Each device commits what it wrote, then pulls with --rebase and pushes: its own files
        // only, so never a conflict.
        func exchange(_ device: String) async throws {
            let result = try await Self.shellOffThePool(
                """
                cd '\(clone(device))' && \(git) add -A && (\(git) diff --cached --quiet || \(git) commit -q -m '\(device)') && \
                \(git) pull -q --rebase origin main && \(git) push -q origin HEAD:main
                """)
            #expect(result.status == 0 && !result.output.contains("CONFLICT"), "\(device): \(result.output)")
        }
        try await Self.deleteAndRestore(
            laptopFolder: clone("laptop") + "/journals", deskFolder: clone("desk") + "/journals", work: work
        ) {
            try await exchange("laptop")
            try await exchange("desk")
            try await exchange("laptop")
        }
    }

    @Test(.enabled(if: syncthingFound, "skipped: syncthing not found (scripts/test.sh installs Debian's syncthing)"))
    func throughSyncthing() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sync-delete-st-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let script = BuiltBinary.packageRoot.appendingPathComponent("scripts/syncthing-pair.py").path
        func pair(_ command: String) throws -> String {
            try Self.shell("timeout 60 python3 '\(script)' \(command) '\(work.path)'").output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Syncthing's carrying takes seconds, while the studio waits to answer.
        func carry() async throws -> String {
            try await Self.shellOffThePool("timeout 60 python3 '\(script)' wait '\(work.path)'").output.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        try #require(try pair("start") == "ok")
        defer { _ = try? pair("stop") }
        try await Self.deleteAndRestore(
            laptopFolder: work.appendingPathComponent("fa").path, deskFolder: work.appendingPathComponent("fb").path, work: work
        ) {
            let carried = try await carry()
            #expect(carried == "ok")
        }
    }
}
