import Foundation
import Testing

/// What people do to a sync folder (docs/sync.md, "Mishaps"), each through the binary: after
/// each, every device ends with the same export, a rebuild from the folder equals it, and
/// nothing a command reported is missing.
@Suite(.serialized)
struct SyncMishapTests {
    typealias Devices = SyncTests.Devices

    /// A mishap to the laptop's own folder, done between two of its logs.
    enum OwnFolder: String, CaseIterable {
        /// Deleted whole (a tidy-up, a failed restore).
        case deleted
        /// Its journal put back as an older copy (a backup restored, a copy the wrong way).
        case staleCopy
        /// Its journal cut short.
        case shortened
    }

    static func laptopFolder(_ d: Devices, _ folder: String) throws -> String {
        folder + "/" + (try SyncFaultTests.deviceID(d, "laptop"))
    }

    /// Replaces `path` by a new file holding `text`, as Syncthing and git do: a rename.
    static func replace(_ path: String, with text: String) throws {
        try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        _ = rename(path + ".tmp", path)
    }

    @Test(arguments: OwnFolder.allCases)
    func aDevicesOwnJournalHeals(_ mishap: OwnFolder) throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let own = try Self.laptopFolder(d, folder)
        let journal = own + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: own).first))
        let early = try String(contentsOfFile: journal, encoding: .utf8)
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        switch mishap {
        case .deleted: try FileManager.default.removeItem(atPath: own)
        case .staleCopy: try Self.replace(journal, with: early)
        case .shortened:
            let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
            try Self.replace(journal, with: lines.prefix(1).map { $0 + "\n" }.joined())
        }
        try d.routine("laptop", ["done", "FILE", "stretch", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        try SyncFaultTests.expectAgreement(d, habits: ["water", "read", "stretch"])
    }

    /// A junk line added to a journal and taken out again, as a person tidying would: the
    /// reader reads the file again from its start, gets the next real event, and no longer
    /// names the line.
    @Test func aJunkLineAddedAndRemovedIsForgottenAndHidesNothing() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let own = try Self.laptopFolder(d, folder)
        let journal = own + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: own).first))
        let clean = try String(contentsOfFile: journal, encoding: .utf8)
        try Self.replace(journal, with: clean + "a note to self, much longer than the line that replaces it later on\n")
        let warned = try d.routine("desk", ["sync"])
        #expect(warned.stderr.contains("E701"), "\(warned.stderr)")
        #expect(try d.routine("desk", ["sync", "status"]).stdout.contains("cannot read"))
        try Self.replace(journal, with: clean)
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        #expect(try d.routine("desk", ["sync"]).stdout == "1 log from laptop\n")
        #expect(!(try d.routine("desk", ["sync", "status"]).stdout.contains("cannot read")))
        try SyncFaultTests.expectAgreement(d, habits: ["water", "read"])
    }

    /// Rewrites `path` in place, as an editor that saves into the same file does: the inode stays.
    static func rewriteInPlace(_ path: String, _ change: (String) throws -> String) throws {
        let text = try change(try String(contentsOfFile: path, encoding: .utf8))
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.truncate(atOffset: UInt64(text.utf8.count))
        try handle.close()
    }

    /// A blank line put in a journal and then the wrong line break taken out, by an editor
    /// that saves in place: the file ends with its old size and inode, two events joined on
    /// one unreadable line. The device whose journal it is writes the lost event again, and
    /// a device that had read the file reads it again.
    @Test(arguments: [false, true])
    func aSameSizeEditInPlaceIsNoticed(_ readBetween: Bool) throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let own = try Self.laptopFolder(d, folder)
        let journal = own + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: own).first))
        try Self.rewriteInPlace(journal) { $0 + "\n" }
        if readBetween { try d.routine("desk", ["sync"]) }
        try Self.rewriteInPlace(journal) { text in
            let cut = try #require(text.firstIndex(of: "\n"))
            var joined = text
            joined.remove(at: cut)
            return joined
        }
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        try SyncFaultTests.expectAgreement(d, habits: ["water", "read"])
    }

    /// How a copied history's lines reach the original's own folder.
    enum CloneArrival: String, CaseIterable {
        /// The copy's journal replaces the original's (Syncthing's whole-file copy): both
        /// appended one line at the same moment, so the files may have the same size.
        case replaced
        /// Beside it, as a conflict copy.
        case conflictCopy
    }

    /// A history copied to another machine, both writing before either reads the other: the
    /// one that finds lines of its id it did not write takes a new id and writes again what
    /// of its own the folder lacks. Both sides' records survive, and the original's
    /// `routine sync` says what came in.
    @Test(arguments: CloneArrival.allCases)
    func aClonedHistoryIsFoundWheneverItWrites(_ arrival: CloneArrival) throws {
        let d = try Devices()
        let a = d.dir.appendingPathComponent("a").path
        let b = d.dir.appendingPathComponent("b").path
        try d.routine("laptop", ["sync", "init", a, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try FileManager.default.copyItem(atPath: a, toPath: b)
        try FileManager.default.copyItem(atPath: d.history("laptop"), toPath: d.history("clone"))
        try d.routine("clone", ["sync", "init", b, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        try d.routine("clone", ["done", "FILE", "stretch", "--date", "2026-11-23"])
        let id = try SyncFaultTests.deviceID(d, "laptop")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: a + "/" + id).first)
        let theirs = try String(contentsOfFile: b + "/" + id + "/" + name, encoding: .utf8)
        switch arrival {
        case .replaced: try Self.replace(a + "/" + id + "/" + name, with: theirs)
        case .conflictCopy:
            try theirs.write(toFile: a + "/" + id + "/2026-11.sync-conflict-20261123-000000-ABCDEFG.jsonl", atomically: true, encoding: .utf8)
        }
        let found = try d.routine("laptop", ["sync"])
        #expect(found.stderr.contains("E704"), "\(found.stderr)")
        #expect(found.stdout.contains("1 log from laptop"), "\(found.stdout)")
        #expect(!found.stderr.contains("nothing either wrote is lost"))
        // The folders exchanged both ways, every file whole, until nothing changes.
        for _ in 0..<2 {
            try SyncMishapTests.exchange(a, b)
            try d.routine("clone", ["sync"])
            try SyncMishapTests.exchange(b, a)
            try d.routine("laptop", ["sync"])
        }
        let laptop = try d.export("laptop")
        for habit in ["water", "read", "stretch"] {
            #expect(laptop.components(separatedBy: "\"\(habit)\"").count == 2, "\(habit) once: \(laptop)")
        }
        #expect(try d.export("clone") == laptop)
        let rebuilt = d.dir.appendingPathComponent("rebuilt.sqlite").path
        try d.routine("clone", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == laptop)
    }

    /// Copies every journal file of `from` that `to` lacks or holds shorter, whole, by a rename.
    static func exchange(_ from: String, _ to: String) throws {
        let files = FileManager.default
        for device in try files.contentsOfDirectory(atPath: from) {
            try? files.createDirectory(atPath: to + "/" + device, withIntermediateDirectories: false)
            for name in try files.contentsOfDirectory(atPath: from + "/" + device) where name.hasSuffix(".jsonl") {
                let source = try String(contentsOfFile: from + "/" + device + "/" + name, encoding: .utf8)
                let target = (try? String(contentsOfFile: to + "/" + device + "/" + name, encoding: .utf8)) ?? ""
                if source.count > target.count { try replace(to + "/" + device + "/" + name, with: source) }
            }
        }
    }

    /// Two events with one id and different content, read in either order: every device
    /// keeps the same one, and says so once.
    @Test(arguments: [false, true])
    func aDuplicateIdResolvesTheSameEverywhere(_ reversed: Bool) throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["off", "FILE", "2026-11-24", "--reason", "trip"])
        let own = try Self.laptopFolder(d, folder)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: own).first)
        let line = try #require(
            try String(contentsOfFile: own + "/" + name, encoding: .utf8).split(separator: "\n").first { $0.contains("\"dayOff\"") })
        let id = try SyncFaultTests.deviceID(d, "laptop")
        // The same event under other devices' ids, one with another reason.
        let forged = ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"]
        let texts = [String(line), line.replacingOccurrences(of: "\"trip\"", with: "\"ill\"")].map { $0.replacingOccurrences(of: id, with: "") }
        var results: [String] = []
        for (k, device) in ["desk", "tablet"].enumerated() {
            let other = d.dir.appendingPathComponent("folder-\(device)").path
            try d.routine(device, ["sync", "init", other, "--device", device])
            let order = (k == 1) != reversed ? [0, 1] : [1, 0]
            var said = 0
            for index in order {
                try FileManager.default.createDirectory(atPath: other + "/" + forged[index], withIntermediateDirectories: false)
                let text = texts[index].replacingOccurrences(of: "\"device\":\"\"", with: "\"device\":\"\(forged[index])\"")
                try (text + "\n").write(toFile: other + "/" + forged[index] + "/2026-11.jsonl", atomically: true, encoding: .utf8)
                said += try d.routine(device, ["sync"]).stderr.components(separatedBy: "differs from the one of that id").count - 1
            }
            #expect(said == 1)
            #expect(try d.routine(device, ["sync"]).stderr.isEmpty)
            let checked = try d.routine(device, ["history", "check"])
            #expect(checked.status == 0 && checked.stdout.contains("is sound"), "\(checked.stdout)")
            #expect(
                checked.stdout.contains("1 sync event is not applied: another event of the same id won"), "\(checked.stdout)")
            results.append(try d.export(device))
        }
        #expect(results[0] == results[1])
        #expect(results[0].contains("dayOff"), "\(results[0])")
    }

    /// A line of a device's own journal edited by hand, in place or as a conflict copy, by an
    /// edit that sorts before the line or after it: the author keeps what every other device
    /// keeps, and every export agrees.
    @Test(arguments: [(false, "ill"), (true, "ill"), (false, "work"), (true, "work")])
    func anOwnLineEditedByHandIsSettledAsElsewhere(_ asCopy: Bool, _ reason: String) throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["off", "FILE", "2026-11-24", "--reason", "trip"])
        let own = try Self.laptopFolder(d, folder)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: own).first)
        let text = try String(contentsOfFile: own + "/" + name, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"trip\"", with: "\"\(reason)\"")
        #expect(edited != text)
        if asCopy {
            let copy = name.replacingOccurrences(of: ".jsonl", with: ".sync-conflict-20261124-000000-EDITED.jsonl")
            try edited.write(toFile: own + "/" + copy, atomically: true, encoding: .utf8)
        } else {
            try Self.replace(own + "/" + name, with: edited)
        }
        try d.routine("laptop", ["sync"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        try d.routine("laptop", ["sync"])
        let laptop = try d.export("laptop")
        #expect(laptop == (try d.export("desk")))
        // The line that sorts first is kept: "ill" before "trip", "trip" before "work".
        #expect(laptop.contains(reason == "ill" ? "\"ill\"" : "\"trip\""), "\(laptop)")
    }

    /// Leaving and joining again keeps the device's id, and what it wrote before is its own.
    @Test func joiningAgainAfterLeavingKeepsTheId() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        let id = try SyncFaultTests.deviceID(d, "laptop")
        try d.routine("laptop", ["sync", "leave"])
        let again = try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        #expect(again.stdout.contains(id), "\(again.stdout)")
        // Its name again, and nothing it wrote before.
        #expect(again.stdout.contains("wrote 1 event"), "\(again.stdout)")
        #expect(!again.stderr.contains("E704"), "\(again.stderr)")
        try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        try SyncFaultTests.expectAgreement(d, habits: ["water", "read"])
    }

    /// Clocks: an event dated more than a day ahead is held and listed, and applied once the
    /// clock gets there; a day off undone on a device whose clock is behind is removed
    /// everywhere, as the undo was made after seeing it.
    @Test func aClockAheadIsHeldAndAnUndoAfterItWins() throws {
        let library = try SteppedClockTests.shim.get()
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let shifts = ["desk": d.dir.appendingPathComponent("desk-shift").path, "laptop": d.dir.appendingPathComponent("laptop-shift").path]
        @discardableResult
        func on(_ device: String, _ seconds: Int, _ arguments: [String]) throws -> Execution {
            let shift = try #require(shifts[device])
            try String(seconds).write(toFile: shift, atomically: true, encoding: .utf8)
            let result = try execute(
                arguments.map { $0 == "FILE" ? d.file : $0 } + ["--history", d.history(device)],
                environment: ["LD_PRELOAD": library, "CLOCK_SHIFT_FILE": shift])
            #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
            return result
        }
        try on("laptop", 0, ["sync", "init", folder, "--device", "laptop"])
        try on("desk", 2 * 86_400, ["sync", "init", folder, "--device", "desk"])
        try on("desk", 2 * 86_400, ["off", "FILE", "2026-11-30", "--reason", "trip"])
        let held = try on("laptop", 0, ["sync", "status"]).stdout
        #expect(held.contains("1 event from desk dated a day ahead of this clock: held"), "\(held)")
        #expect(!(try on("laptop", 0, ["history", "export"]).stdout.contains("dayOff")))
        // `history check` counts it as held, which is no damage: the check passes.
        let checked = try on("laptop", 0, ["history", "check"]).stdout
        #expect(checked.contains("is sound"), "\(checked)")
        #expect(checked.contains("1 sync event is held, not applied: dated more than a day ahead of this clock"), "\(checked)")
        #expect(try on("laptop", 86_400 + 3_600, ["sync"]).stdout == "1 day off from desk\n")
        #expect(!(try on("laptop", 86_400 + 3_600, ["history", "check"]).stdout.contains("held")))
        // The desk an hour ahead records a day off; the laptop, behind, sees it and undoes it.
        try on("desk", 3_600, ["off", "FILE", "2026-12-01"])
        let undone = try on("laptop", 0, ["off", "FILE", "2026-12-01", "--undo"])
        #expect((undone.stdout + undone.stderr).contains("removed 1 day off"), "\(undone.stdout)")
        try on("desk", 3_600, ["sync"])
        for device in ["laptop", "desk"] {
            let export = try on(device, 86_400 + 3_600, ["history", "export"]).stdout
            #expect(!export.contains("\"dayOff\":\"2026-12-01\""), "\(device): \(export)")
        }
    }

    /// Bad input is bounded and escaped: many bad lines give one warning and a few rows; a
    /// file name with a newline forges no line of `sync status`.
    @Test func badLinesAreOneWarningAndNamesAreEscaped() throws {
        let d = try Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let forged = folder + "/cccccccccccccccccccccccccccccccc"
        try FileManager.default.createDirectory(atPath: forged, withIntermediateDirectories: false)
        try String(repeating: "junk\n", count: 1_000).write(toFile: forged + "/2026-11.jsonl", atomically: true, encoding: .utf8)
        try "junk\n".write(toFile: forged + "/x\nnot written yet: 0.jsonl", atomically: true, encoding: .utf8)
        let synced = try d.routine("desk", ["sync"])
        #expect(synced.stderr.components(separatedBy: "E701").count - 1 == 2, "\(synced.stderr)")
        #expect(synced.stderr.contains("1000 lines are skipped (lines 1, 2, 3, 4, 5, …)"), "\(synced.stderr)")
        let status = try d.routine("desk", ["sync", "status"]).stdout
        #expect(status.components(separatedBy: "\n").filter { $0.hasPrefix("cannot read") }.count <= 7, "\(status)")
        #expect(status.components(separatedBy: "\n").filter { $0.hasPrefix("not written yet") }.count == 1, "\(status)")
        #expect(status.contains("x\\u{A}not written yet"), "\(status)")
    }
}
