import Foundation
import Testing

/// `routine sync` through Syncthing itself: two instances on 127.0.0.1 (scripts/syncthing-pair.py)
/// carry a laptop's and a desk's journals; both end with the same export, and a conflict copy
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
}
