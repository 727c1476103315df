import Foundation
import Testing

/// `routine sync` through Syncthing itself: instances on 127.0.0.1 (scripts/syncthing-pair.py)
/// carry two or three devices' journals; all end with the same export, and a conflict copy
/// made on purpose over a paused link doubles nothing.
@Suite(.serialized)
struct SyncthingTests {
    static let found = (try? shell("command -v syncthing"))?.status == 0

    func pair(_ command: String, _ dir: URL, _ extra: String = "") throws -> String {
        let script = packageRoot.appendingPathComponent("scripts/syncthing-pair.py").path
        let result = try shell("timeout 60 python3 '\(script)' \(command) '\(dir.path)' \(extra)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + result.stderr
    }

    @Test(.enabled(if: found, "skipped: syncthing not found (scripts/test.sh installs Debian's syncthing)"))
    func twoDevicesThroughSyncthingAgreeAndAConflictCopyDoublesNothing() throws {
        let d = try SyncTests.Devices()
        let dir = d.dir.appendingPathComponent("st")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try #require(try pair("start", dir) == "ok")
        defer { _ = try? pair("stop", dir) }
        let laptopFolder = dir.appendingPathComponent("fa").path
        let deskFolder = dir.appendingPathComponent("fb").path
        func carry() throws { #expect(try pair("wait", dir) == "ok") }

        let joined = try d.routine("laptop", ["sync", "init", laptopFolder, "--device", "laptop"])
        let laptopID = try #require(joined.stdout.split(separator: "(").dropFirst().first?.prefix(32))
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("laptop", ["off", "FILE", "2026-11-25", "--reason", "trip"])
        try carry()
        try d.routine("desk", ["sync", "init", deskFolder, "--device", "desk"])
        let run = try execute(["run", d.file, "--date", "2026-11-24", "--history", d.history("desk")], stdin: "d\nd\ns\n")
        #expect(run.status == 0, "\(run.stderr)")
        try d.routine("desk", ["amend", "FILE", "2026-11-24", "stretch", "done"])
        try carry()
        try d.routine("laptop", ["sync"])
        try d.routine("desk", ["sync"])
        let laptop = try d.export("laptop")
        #expect(laptop.split(separator: "\n").count == 3, "\(laptop)")
        #expect(try d.export("desk") == laptop)

        // Paused: the laptop records, and the desk's copy of the laptop's journal gets a line
        // duplicated (as a copy by hand would): both changed, so Syncthing keeps a conflict copy.
        #expect(try pair("pause", dir, "yes") == "ok")
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-26"])
        let journals = d.journalFiles(in: deskFolder).filter { !$0.contains("sync-conflict") }
        let theirs = try #require(journals.first { $0.hasPrefix(laptopID) })
        let path = deskFolder + "/" + theirs
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((text.split(separator: "\n")[0] + "\n").utf8))
        try handle.close()
        #expect(try pair("pause", dir, "no") == "ok")
        try carry()
        let all = d.journalFiles(in: laptopFolder) + d.journalFiles(in: deskFolder)
        #expect(all.contains { $0.contains("sync-conflict") }, "\(all)")
        try d.routine("laptop", ["sync"])
        try d.routine("desk", ["sync"])
        let after = try d.export("laptop")
        #expect(after.split(separator: "\n").count == 4, "\(after)")
        #expect(try d.export("desk") == after)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("desk", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == after)
    }

    /// Three devices, each recording on its own and in turns (logs, a run, an amendment of
    /// another device's run, a day off and its undo), carried by three Syncthing instances:
    /// every device shows the same export, `log`, `stats` and Today.
    @Test(.enabled(if: found, "skipped: syncthing not found (scripts/test.sh installs Debian's syncthing)"))
    func threeDevicesThroughSyncthingShowTheSameDays() throws {
        let d = try SyncTests.Devices()
        let dir = d.dir.appendingPathComponent("st")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try #require(try pair("start", dir, "3") == "ok")
        defer { _ = try? pair("stop", dir) }
        let devices = ["laptop": "fa", "desk": "fb", "trip": "fc"]
        func carry() throws { #expect(try pair("wait", dir) == "ok") }
        for (device, folder) in devices.sorted(by: { $0.value < $1.value }) {
            try d.routine(device, ["sync", "init", dir.appendingPathComponent(folder).path, "--device", device])
            try carry()
        }
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let run = try execute(["run", d.file, "--date", "2026-11-24", "--history", d.history("desk")], stdin: "d\nd\ns\n")
        #expect(run.status == 0, "\(run.stderr)")
        try d.routine("trip", ["off", "FILE", "2026-11-25", "--reason", "train"])
        try d.routine("trip", ["done", "FILE", "read", "--date", "2026-11-23"])
        try carry()
        try d.routine("laptop", ["sync"])
        try d.routine("laptop", ["amend", "FILE", "2026-11-24", "stretch", "done"])
        try d.routine("desk", ["off", "FILE", "2026-11-26"])
        try carry()
        try d.routine("trip", ["sync"])
        try d.routine("trip", ["off", "FILE", "2026-11-26", "--undo"])
        try carry()
        func views(_ device: String) throws -> [String] {
            try d.routine(device, ["sync"])
            return [
                try d.export(device),
                try d.routine(device, ["log", "FILE"]).stdout,
                try d.routine(device, ["stats", "FILE", "--since", "2026-11-20", "--until", "2026-11-26"]).stdout,
                try d.routine(device, ["today", "FILE", "--date", "2026-11-24", "--json"]).stdout,
                try d.routine(device, ["off", "FILE", "--list"]).stdout,
            ]
        }
        let laptop = try views("laptop")
        #expect(laptop[0].contains("\"stretch\"") && laptop[0].contains("train"), "\(laptop[0])")
        #expect(laptop[4].contains("2026-11-25") && !laptop[4].contains("2026-11-26"), "the undone day off stays undone: \(laptop[4])")
        #expect(try views("desk") == laptop)
        #expect(try views("trip") == laptop)
    }
}
