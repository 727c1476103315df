import Foundation
import Testing

/// The mishaps of issue #55 carried by the real engines (docs/sync.md): git (a bare repository
/// and a clone per device) and two Syncthing instances on 127.0.0.1. In each, a stale copy of
/// a device's own folder is put back over the newer one and another device's own folder is
/// deleted, and the engine carries both to the other machine; after more records and a few
/// exchanges every device, a device joining late and a rebuild from the folder hold every log
/// and the day off, with the same export.
@Suite(.serialized)
struct SyncRealEnginesMishapTests {
    static let syncthingFound = (try? shell("command -v syncthing"))?.status == 0

    /// What the scenario records, by device: a habit logged on a day.
    static let logs: [(device: String, habit: String, date: String)] = [
        ("laptop", "water", "2026-11-16"), ("desk", "read", "2026-11-16"), ("laptop", "stretch", "2026-11-16"),
        ("desk", "water", "2026-11-17"), ("desk", "read", "2026-11-18"), ("laptop", "water", "2026-11-18"),
    ]

    /// The folder of device `name` in a copy of the sync folder: the one whose journal holds
    /// the event that names it.
    static func ownFolder(_ name: String, in folder: String) throws -> String {
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jsonl") }
        let own = files.first { file in
            let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
            return text.contains(#""type":"device","name":"\#(name)""#)
        }
        return folder + "/" + String(try #require(own?.split(separator: "/").first, "no journal names '\(name)' in \(files)"))
    }

    /// Every (habit, date) logged done in an export, once per line it is in.
    static func logged(_ export: String) -> [String] {
        export.split(separator: "\n").flatMap { line -> [String] in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let date = object["date"] as? String, let steps = object["steps"] as? [[String: Any]]
            else { return [] }
            return steps.filter { $0["result"] as? String == "done" }.compactMap { ($0["node"] as? String).map { "\($0) \(date)" } }
        }.sorted()
    }

    /// The scenario, whatever carries the folders: `carry` brings each copy's changes to the
    /// other (a commit, merge and push in each clone; a Syncthing scan and wait).
    static func scenario(_ d: SyncTests.Devices, laptop: String, desk: String, carry: () throws -> Void) throws {
        let folders = ["laptop": laptop, "desk": desk]
        func log(_ k: Int) throws { try d.routine(logs[k].device, ["done", "FILE", logs[k].habit, "--date", logs[k].date]) }
        func both() throws {
            try carry()
            try d.routine("laptop", ["sync"])
            try d.routine("desk", ["sync"])
        }
        try d.routine("laptop", ["sync", "init", laptop, "--device", "laptop"])
        try carry()
        try d.routine("desk", ["sync", "init", desk, "--device", "desk"])
        try log(0)
        try log(1)
        try both()
        // A backup of the laptop's own folder, taken now.
        let own = try ownFolder("laptop", in: laptop)
        let backup = d.dir.appendingPathComponent("backup").path
        try FileManager.default.copyItem(atPath: own, toPath: backup)
        try log(2)
        try d.routine("laptop", ["off", "FILE", "2026-11-17", "--reason", "trip"])
        try log(3)
        try both()
        // The backup put back over the newer folder; the engine carries it to the desk.
        try FileManager.default.removeItem(atPath: own)
        try FileManager.default.copyItem(atPath: backup, toPath: own)
        try both()
        // The desk's own folder deleted (a tidy-up); the engine carries the deletion.
        try FileManager.default.removeItem(atPath: try ownFolder("desk", in: desk))
        try both()
        try log(4)
        try log(5)
        for _ in 0..<3 { try both() }
        try carry()

        let expected = logs.map { "\($0.habit) \($0.date)" }.sorted()
        let export = try d.export("laptop")
        #expect(logged(export) == expected, "\(export)")
        #expect(export.contains(#"{"dayOff":"2026-11-17""#), "\(export)")
        #expect(try d.export("desk") == export)
        for (device, folder) in folders.sorted(by: { $0.key < $1.key }) {
            let rebuilt = d.dir.appendingPathComponent("rebuilt-\(device).sqlite").path
            try d.routine(device, ["history", "rebuild", rebuilt, "--from-sync"])
            #expect(try execute(["history", "export", "--history", rebuilt]).stdout == export, "rebuilt from \(device)'s folder")
            // A device joining late, from a copy of this folder, gets everything.
            let late = d.dir.appendingPathComponent("late-\(device)").path
            try FileManager.default.copyItem(atPath: folder, toPath: late)
            try d.routine("late-\(device)", ["sync", "init", late, "--device", "late"])
            #expect(try d.export("late-\(device)") == export, "joined late from \(device)'s folder")
        }
        for device in ["laptop", "desk"] {
            #expect(try execute(["history", "check", "--history", d.history(device)]).status == 0)
        }
    }

    @Test func throughGitAStaleRestoreAndADeletedFolderLoseNothing() throws {
        let d = try SyncTests.Devices()
        let git = "git -c user.name=t -c user.email=t@localhost -c init.defaultBranch=main -c commit.gpgsign=false"
        let bare = d.dir.appendingPathComponent("bare.git").path
        func clone(_ device: String) -> String { d.dir.appendingPathComponent("clone-\(device)").path }
        let started = try shell(
            """
            \(git) init -q --bare '\(bare)' && \(git) clone -q '\(bare)' '\(clone("laptop"))' 2>&1 && cd '\(clone("laptop"))' && \
            \(git) commit -q --allow-empty -m start && \(git) push -q origin HEAD:main 2>&1 && \(git) clone -q '\(bare)' '\(clone("desk"))' 2>&1
            """)
        try #require(started.status == 0, "\(started.stdout)")
        func exchange(_ device: String) throws {
            let result = try shell(
                """
                cd '\(clone(device))' && \(git) add -A && (\(git) diff --cached --quiet || \(git) commit -q -m '\(device)') && \
                \(git) pull -q --rebase origin main 2>&1 && \(git) push -q origin HEAD:main 2>&1
                """)
            #expect(result.status == 0 && !result.stdout.contains("CONFLICT"), "\(device): \(result.stdout)")
        }
        try Self.scenario(d, laptop: clone("laptop") + "/journals", desk: clone("desk") + "/journals") {
            try exchange("laptop")
            try exchange("desk")
            try exchange("laptop")
        }
    }

    @Test(.enabled(if: syncthingFound, "skipped: syncthing not found (scripts/test.sh installs Debian's syncthing)"))
    func throughSyncthingAStaleRestoreAndADeletedFolderLoseNothing() throws {
        let d = try SyncTests.Devices()
        let dir = d.dir.appendingPathComponent("st")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = packageRoot.appendingPathComponent("scripts/syncthing-pair.py").path
        func pair(_ command: String) throws -> String {
            let result = try shell("timeout 60 python3 '\(script)' \(command) '\(dir.path)'")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + result.stderr
        }
        try #require(try pair("start") == "ok")
        defer { _ = try? pair("stop") }
        func carry() throws { #expect(try pair("wait") == "ok") }
        try Self.scenario(d, laptop: dir.appendingPathComponent("fa").path, desk: dir.appendingPathComponent("fb").path, carry: carry)
    }
}
