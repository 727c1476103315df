import Foundation
import Testing

/// `routine sync`: devices sharing one folder, by hand and through git (docs/sync.md).
@Suite(.serialized)
struct SyncTests {
    static let routine = """
        routine "Sync"
        habit water "Glass of water" -> read
        habit read "Read" -> stretch
        habit stretch "Stretch"

        """

    /// A few devices, each with its own history, and the folder they share (or, for git,
    /// each its own clone of it).
    struct Devices {
        let dir: URL
        let file: String

        init() throws {
            dir = try temporaryDirectory()
            file = dir.appendingPathComponent("sync.rt").path
            try SyncTests.routine.write(toFile: file, atomically: true, encoding: .utf8)
        }

        func history(_ device: String) -> String { dir.appendingPathComponent("\(device).sqlite").path }

        @discardableResult
        func routine(_ device: String, _ arguments: [String]) throws -> Execution {
            let result = try execute(arguments.map { $0 == "FILE" ? file : $0 } + ["--history", history(device)])
            #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
            return result
        }

        func export(_ device: String) throws -> String { try routine(device, ["history", "export"]).stdout }

        func journalFiles(in folder: String) -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        }
    }

    @Test func twoDevicesEndWithTheSameHistoryAndARebuildEqualsIt() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let joined = try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        #expect(joined.stdout.contains("wrote 2 events"), "\(joined.stdout)")
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        // Every command reads what is new before it answers: no explicit sync needed.
        #expect(try d.export("desk") == (try d.export("laptop")))
        try d.routine("desk", ["done", "FILE", "read", "--date", "2026-11-23"])
        try d.routine("desk", ["off", "FILE", "2026-11-24", "--reason", "ill"])
        let came = try d.routine("laptop", ["sync"])
        #expect(came.stdout == "1 log and 1 day off from desk\n")
        #expect(try d.routine("laptop", ["sync"]).stdout == "nothing new came in\n")
        // Already done on the other device: a log of it is refused here.
        let again = try execute(["done", d.file, "read", "--date", "2026-11-23", "--history", d.history("laptop")])
        #expect(again.status == 1, "\(again.stdout)")
        let laptop = try d.export("laptop")
        #expect(laptop.split(separator: "\n").count == 3)
        #expect(try d.export("desk") == laptop)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("desk", ["history", "rebuild", rebuilt, "--from-sync"])
        let fromJournals = try execute(["history", "export", "--history", rebuilt])
        #expect(fromJournals.stdout == laptop)
        // Private as the history: folders 0700, files 0600.
        for file in d.journalFiles(in: folder) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
            let parent = (folder + "/" + file as NSString).deletingLastPathComponent
            #expect((try FileManager.default.attributesOfItem(atPath: parent)[.posixPermissions] as? Int) == 0o700)
        }
    }

    /// An answer amended on one device (v7) reaches the other with the run it belongs to:
    /// `stats --question` and the export agree there, and a rebuild from the journals alone
    /// gives the same export. A history that synced before v7 rebuilt `amendment` gets its
    /// outbox triggers back when it is migrated.
    @Test func anAmendedAnswerTravelsAndTheRebuildKeepsIt() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let file = d.dir.appendingPathComponent("logs.rt").path
        try DoneCommandTests.routine.write(toFile: file, atomically: true, encoding: .utf8)
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        // Monday on the laptop: water, 18 push-ups, stretch skipped, run, read, "Good", gym.
        let run = try execute(["run", file, "--date", "2026-11-23", "--history", d.history("laptop")], stdin: "d\n18\ns\nd\nd\n1\nd\n")
        #expect(run.status == 0, "\(run.stderr)")
        // A history that joined before v7: its amendment triggers are gone and v7 and v8
        // not yet applied; the migration brings the triggers back.
        let sql = """
            DROP TRIGGER sync_amendment_insert; DROP TRIGGER sync_amendment_update; DROP TRIGGER sync_amendment_delete;
            DROP INDEX step_passed; DELETE FROM grdb_migrations WHERE identifier LIKE 'v7:%' OR identifier LIKE 'v8:%';
            """
        let dropped = try shell("sqlite3 '\(d.history("laptop"))' \"\(sql)\"")
        #expect(dropped.status == 0, "\(dropped.stderr)")
        let amended = try d.routine("laptop", ["amend", file, "2026-11-23", "mood", "Bad"])
        // (An amendment also changes its step, whose trigger would catch it: the amendment's
        // own triggers are checked directly.)
        let triggers = try shell(
            "sqlite3 '\(d.history("laptop"))' \"SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_amendment_%'\"")
        #expect(triggers.stdout == "3\n", "\(triggers.stdout) \(triggers.stderr)")
        #expect(amended.stdout.contains("now \"Bad\""), "\(amended.stdout)")
        try d.routine("laptop", ["sync"])
        let came = try d.routine("desk", ["sync"])
        #expect(came.stdout.contains("from laptop"), "\(came.stdout)")
        func mostChosen(_ device: String) throws -> String? {
            let json = try d.routine(device, ["stats", file, "--until", "2026-11-23", "--question", "mood", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            return object?["mostChosen"] as? String
        }
        #expect(try mostChosen("desk") == "Bad")
        let laptop = try d.export("laptop")
        #expect(laptop.contains(#""before":{"result":"answered","option":"Good","index":1}"#), "\(laptop)")
        #expect(try d.export("desk") == laptop)
        // The desk amends it back later: the later amendment wins on both, both are kept.
        try d.routine("desk", ["amend", file, "2026-11-23", "mood", "Good"])
        try d.routine("laptop", ["sync"])
        #expect(try mostChosen("laptop") == "Good")
        let both = try d.export("laptop")
        #expect(both.contains(#""option":"Bad""#) && both.contains(#""option":"Good""#), "\(both)")
        #expect(try d.export("desk") == both)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("desk", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == both)
    }

    /// A device's journal deleted (by hand, or a deletion an engine carried) while the device
    /// goes on: its next write puts the month's events back under their own ids, so another
    /// device and a rebuild still get everything; the old file coming back doubles nothing.
    @Test func aJournalDeletedAndBackLosesAndDoublesNothing() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let joined = try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        let id = try #require(joined.stdout.split(separator: "(").dropFirst().first?.prefix(32))
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let journal = try #require(d.journalFiles(in: folder).first { $0.hasPrefix(id) })
        let away = d.dir.appendingPathComponent("away.jsonl").path
        try FileManager.default.moveItem(atPath: folder + "/" + journal, toPath: away)
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let laptop = try d.export("laptop")
        #expect(laptop.contains("\"water\"") && laptop.contains("\"read\""), "\(laptop)")
        #expect(try d.export("desk") == laptop)
        // Back beside the new one (as a copy an engine restores): nothing doubled.
        try FileManager.default.moveItem(atPath: away, toPath: folder + "/" + id + "/2026-11.restored.jsonl")
        try d.routine("desk", ["sync"])
        try d.routine("laptop", ["sync"])
        #expect(try d.export("desk") == laptop)
        #expect(try d.export("laptop") == laptop)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("desk", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == laptop)
    }

    /// One device's clock two hours ahead, then set right: its stamps follow the newest it has
    /// seen (a hybrid logical clock), so a day off it undid after the correction is stamped
    /// after the day off, and stays undone on both devices, which end with the same export.
    @Test func aClockTwoHoursAheadOrdersNothingWithinItsDevice() throws {
        let library = try SteppedClockTests.shim.get()
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let shift = d.dir.appendingPathComponent("shift").path
        func desk(_ arguments: [String]) throws {
            let result = try execute(
                arguments.map { $0 == "FILE" ? d.file : $0 } + ["--history", d.history("desk")],
                environment: ["LD_PRELOAD": library, "CLOCK_SHIFT_FILE": shift])
            #expect(result.status == 0, "desk \(arguments): \(result.stderr)")
        }
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try "7200".write(toFile: shift, atomically: true, encoding: .utf8)
        try desk(["sync", "init", folder, "--device", "desk"])
        try desk(["off", "FILE", "2026-11-24", "--reason", "trip"])
        try desk(["done", "FILE", "water", "--date", "2026-11-23"])
        try "0".write(toFile: shift, atomically: true, encoding: .utf8)
        try desk(["off", "FILE", "2026-11-24", "--undo"])
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        try desk(["sync"])
        try d.routine("laptop", ["sync"])
        // The undo's stamp follows the day off's, though the clock went back between them.
        let lines = try d.journalFiles(in: folder).flatMap { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).split(separator: "\n") }
        func at(_ type: String) -> String? {
            lines.first { $0.contains("\"type\":\"\(type)\"") }?.split(separator: "\"at\":\"").dropFirst().first.map { String($0.prefix(24)) }
        }
        let off = try #require(at("dayOff"))
        let on = try #require(at("dayOn"))
        #expect(on > off, "\(on) \(off)")
        let laptop = try d.export("laptop")
        #expect(!laptop.contains("dayOff"), "\(laptop)")
        #expect(laptop.contains("\"water\"") && laptop.contains("\"read\""), "\(laptop)")
        #expect(try d.export("desk") == laptop)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("laptop", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == laptop)
    }

    /// Joining again under another name keeps the device's sequence: a day off undone after
    /// it stays undone, here and on another device.
    @Test func joiningAgainKeepsTheSequence() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("laptop", ["off", "FILE", "2026-11-24"])
        try d.routine("laptop", ["sync", "init", folder, "--device", "work laptop"])
        try d.routine("laptop", ["off", "FILE", "2026-11-24", "--undo"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let laptop = try d.export("laptop")
        #expect(!laptop.contains("dayOff") && laptop.contains("\"water\""), "\(laptop)")
        #expect(try d.export("desk") == laptop)
    }

    /// Faults a folder meets: a conflict copy, a duplicated file, a bad line, a half-written
    /// last line, a file replaced by another inode. Nothing is lost or doubled, and a bad
    /// line is named once.
    @Test func copiesAndBadLinesChangeNothingAndAreNamedOnce() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let before = try d.export("desk")
        #expect(before.contains("\"water\""))
        let laptopFile = try #require(
            d.journalFiles(in: folder).first { file in
                (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8))?.contains("\"name\":\"laptop\"") == true
            })
        let path = folder + "/" + laptopFile
        let copy = (path as NSString).deletingPathExtension + ".sync-conflict-20261125-101010-ABCDEFG.jsonl"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: (path as NSString).deletingLastPathComponent + "/copied by hand.jsonl")
        #expect(try d.routine("desk", ["sync"]).stdout == "nothing new came in\n")
        // A bad line, then a line cut short: the bad one is named with its number, once.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n{\"v\":1,\"id\":\"".utf8))
        try handle.close()
        let first = try d.routine("desk", ["sync"])
        #expect(first.stderr.contains("E701"), "\(first.stderr)")
        #expect(first.stderr.contains("line \(lines + 1): not JSON"), "\(first.stderr)")
        #expect(!first.stderr.contains("line \(lines + 2)"))
        #expect(!(try d.routine("desk", ["sync"]).stderr.contains("E701")))
        // The same file put back as a new inode (as Syncthing does) is read again: no warning
        // again, nothing doubled.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        try bytes.write(to: URL(fileURLWithPath: path))
        let replaced = try d.routine("desk", ["sync"])
        #expect(!replaced.stderr.contains("E701"), "\(replaced.stderr)")
        #expect(try d.export("desk") == before)
        #expect(try d.export("laptop") == before)
    }

    /// A history copied to a new machine writes with the same device id: the copy is told,
    /// takes a new id, and what both wrote arrives everywhere.
    @Test func aCopiedHistoryTakesANewIdWithoutLoss() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try FileManager.default.copyItem(atPath: d.history("laptop"), toPath: d.history("copy"))
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let copied = try d.routine("copy", ["done", "FILE", "read", "--date", "2026-11-23"])
        #expect(copied.stderr.contains("E704"), "\(copied.stderr)")
        try d.routine("laptop", ["sync"])
        try d.routine("copy", ["sync"])
        let laptop = try d.export("laptop")
        #expect(laptop.contains("\"water\"") && laptop.contains("\"read\""), "\(laptop)")
        #expect(try d.export("copy") == laptop)
    }

    /// The journal cannot be written (here its folder is a file, as a full disk or a read-only
    /// folder would refuse it too): the command warns and records anyway, and the next command
    /// writes what is owed, as after a crash between the history's commit and the journal.
    @Test func eventsOwedToAnUnwritableJournalAreWrittenByTheNextCommand() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let joined = try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        let id = try #require(joined.stdout.split(separator: "(").dropFirst().first?.prefix(32))
        let own = folder + "/" + id
        try FileManager.default.moveItem(atPath: own, toPath: own + ".away")
        try Data().write(to: URL(fileURLWithPath: own))
        let refused = try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        #expect(refused.stderr.contains("E703"), "\(refused.stderr)")
        #expect(try d.routine("laptop", ["sync", "status"]).stdout.contains("not written yet: 1"))
        try FileManager.default.removeItem(atPath: own)
        try FileManager.default.moveItem(atPath: own + ".away", toPath: own)
        try d.routine("laptop", ["sync"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        #expect(try d.export("desk").contains("\"water\""))
        #expect(try d.export("desk") == (try d.export("laptop")))
    }

    /// A history copied to a new machine whose clone of the repository it joins again: two
    /// clones would write one device id. The copy finds lines it did not write in its own
    /// journal, says so, takes a new id, and nothing conflicts in git or is lost.
    @Test func twoGitClonesWithOneDeviceIdAreDetected() throws {
        let d = try Devices()
        let git = "git -c user.name=t -c user.email=t@localhost -c init.defaultBranch=main -c commit.gpgsign=false"
        let bare = d.dir.appendingPathComponent("bare.git").path
        #expect(try shell("\(git) init -q --bare '\(bare)'").status == 0)
        func clone(_ device: String) -> String { d.dir.appendingPathComponent("clone-\(device)").path }
        func exchange(_ device: String) throws {
            let script = """
                cd '\(clone(device))' && \(git) add -A && (\(git) diff --cached --quiet || \(git) commit -q -m '\(device)') && \
                \(git) pull -q --rebase origin main 2>&1 && \(git) push -q origin HEAD:main 2>&1
                """
            let result = try shell(script)
            #expect(result.status == 0, "\(device): \(result.stdout)")
        }
        #expect(
            try shell(
                "\(git) clone -q '\(bare)' '\(clone("laptop"))' 2>&1 && cd '\(clone("laptop"))' && \(git) commit -q --allow-empty -m start && \(git) push -q origin HEAD:main 2>&1"
            ).status == 0)
        try d.routine("laptop", ["sync", "init", clone("laptop") + "/journals", "--device", "laptop"])
        try exchange("laptop")
        try FileManager.default.copyItem(atPath: d.history("laptop"), toPath: d.history("copy"))
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try exchange("laptop")
        #expect(try shell("\(git) clone -q '\(bare)' '\(clone("copy"))' 2>&1").status == 0)
        // On its new machine the copy's old folder is not there: the laptop's clone is set
        // aside while the copy joins its own clone, where it finds the laptop's lines.
        try FileManager.default.moveItem(atPath: clone("laptop"), toPath: clone("laptop") + ".away")
        let joined = try d.routine("copy", ["sync", "init", clone("copy") + "/journals", "--device", "laptop"])
        try FileManager.default.moveItem(atPath: clone("laptop") + ".away", toPath: clone("laptop"))
        let copied = try d.routine("copy", ["done", "FILE", "read", "--date", "2026-11-23"])
        #expect((joined.stderr + copied.stderr).contains("E704"), "\(joined.stderr) \(copied.stderr)")
        try exchange("copy")
        try exchange("laptop")
        try d.routine("laptop", ["sync"])
        try d.routine("copy", ["sync"])
        let laptop = try d.export("laptop")
        #expect(laptop.contains("\"water\"") && laptop.contains("\"read\""), "\(laptop)")
        #expect(try d.export("copy") == laptop)
    }

    /// Three clones of one git repository, each device committing only its own journal and
    /// pushing after `pull --rebase`: never a conflict, and the same export everywhere.
    @Test func threeGitClonesNeverConflictAndAgree() throws {
        let d = try Devices()
        let git = "git -c user.name=t -c user.email=t@localhost -c init.defaultBranch=main -c commit.gpgsign=false"
        let bare = d.dir.appendingPathComponent("bare.git").path
        #expect(try shell("\(git) init -q --bare '\(bare)'").status == 0)
        let devices = ["a", "b", "c"]
        for device in devices {
            let clone = d.dir.appendingPathComponent("clone-\(device)").path
            let cloned = try shell("\(git) clone -q '\(bare)' '\(clone)' 2>&1")
            #expect(cloned.status == 0, "\(cloned.stdout)")
            try d.routine(device, ["sync", "init", clone + "/journals", "--device", device])
        }
        func push(_ device: String) throws {
            let clone = d.dir.appendingPathComponent("clone-\(device)").path
            let script = """
                cd '\(clone)' && \(git) add -A && (\(git) diff --cached --quiet || \(git) commit -q -m '\(device)') && \
                (\(git) pull -q --rebase origin main 2>/dev/null || true) && \(git) push -q origin HEAD:main 2>&1
                """
            let pushed = try shell(script)
            #expect(pushed.status == 0, "\(device): \(pushed.stdout) \(pushed.stderr)")
        }
        let habits = ["water", "read", "stretch"]
        for (k, device) in devices.enumerated() {
            try push(device)
            try d.routine(device, ["done", "FILE", habits[k], "--date", "2026-11-23"])
            try d.routine(device, ["done", "FILE", habits[(k + 1) % 3], "--date", "2026-11-24"])
            try push(device)
        }
        for device in devices {
            let clone = d.dir.appendingPathComponent("clone-\(device)").path
            let pulled = try shell("cd '\(clone)' && \(git) pull -q --rebase origin main 2>&1")
            #expect(pulled.status == 0, "\(pulled.stdout)")
            #expect(!pulled.stdout.contains("CONFLICT"))
            try d.routine(device, ["sync"])
        }
        let a = try d.export("a")
        #expect(a.split(separator: "\n").count == 6, "\(a)")
        #expect(try d.export("b") == a)
        #expect(try d.export("c") == a)
    }
}
