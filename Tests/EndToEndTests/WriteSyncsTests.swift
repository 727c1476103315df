import Foundation
import RoutineKit
import Testing

/// What a command that writes the history syncs to disk (docs/history.md, "The file"): this
/// program's own records are folded into the file, synced, when the command ends; events read
/// from other devices' journals are left in the WAL without a sync. Seen through strace.
@Suite(.serialized)
struct WriteSyncsTests {
    /// Runs the binary with `arguments` under strace, and returns what it printed and the
    /// paths of the files it synced (`fsync` and `fdatasync`).
    static func traced(_ arguments: [String]) throws -> (Execution, [String]) {
        try #require(try shell("command -v strace").status == 0, "strace is missing (apt-get install strace)")
        let log = try temporaryDirectory().appendingPathComponent("strace.log").path
        let quoted = arguments.map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try shell("exec strace -f -y -qq -o '\(log)' -e trace=fsync,fdatasync \"$ROUTINE\" \(quoted)")
        // A line reads `fdatasync(4</folder/laptop.sqlite-wal>) = 0`.
        let synced = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        return (result, synced)
    }

    /// A laptop that logged a habit, then joined a folder, and a desk that joined after it.
    static func joined() throws -> SyncTests.Devices {
        let d = try SyncTests.Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        return d
    }

    @Test func eventsFromAnotherDeviceAreNotSyncedAndOwnRecordsAre() throws {
        let d = try Self.joined()
        let laptop = d.history("laptop")
        try d.routine("desk", ["done", "FILE", "read", "--date", "2026-11-23"])
        let ownFiles = [laptop, laptop + "-wal", d.dir.path]

        // `sync init` folded the WAL in: the first write into it syncs its header and the
        // folder, and nothing folds it into the file.
        let (came, cameSynced) = try Self.traced(["sync", "--history", laptop])
        #expect(came.status == 0 && came.stdout == "1 log from desk\n", "\(came.stdout) \(came.stderr)")
        #expect(!cameSynced.contains(laptop), "\(cameSynced)")
        // Appended to a WAL that holds frames: nothing synced at all.
        try d.routine("desk", ["done", "FILE", "stretch", "--date", "2026-11-24"])
        let (next, nextSynced) = try Self.traced(["sync", "--history", laptop])
        #expect(next.stdout == "1 log from desk\n", "\(next.stdout) \(next.stderr)")
        #expect(nextSynced.allSatisfy { !ownFiles.contains($0) }, "\(nextSynced)")
        // The log is in the WAL, read by every reader, and the same on both devices.
        #expect(try d.export("laptop") == (try d.export("desk")))
        let (nothing, nothingSynced) = try Self.traced(["sync", "--history", laptop])
        #expect(nothing.stdout == "nothing new came in\n", "\(nothing.stdout)")
        #expect(nothingSynced.allSatisfy { !ownFiles.contains($0) }, "\(nothingSynced)")

        // A record of this device's own is folded into the file and synced before the command
        // ends, with what came in before it: the file alone then holds everything.
        let (logged, loggedSynced) = try Self.traced(["done", d.file, "read", "--date", "2026-11-24", "--history", laptop])
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(loggedSynced.contains(laptop + "-wal") && loggedSynced.contains(laptop), "\(loggedSynced)")
        let copy = d.dir.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: laptop, toPath: copy)
        let fromCopy = try execute(["history", "export", "--history", copy])
        let laptopExport = try d.export("laptop")
        #expect(fromCopy.status == 0 && fromCopy.stdout == laptopExport, "\(fromCopy.stderr)")
        #expect(fromCopy.stdout.split(separator: "\n").count == 4)
    }

    /// The WAL a closing connection leaves is bounded: every process that opens the history
    /// next reads all of it. Much that came in at once is folded into the file on closing.
    @Test func muchThatCameInIsFoldedIn() throws {
        let d = try Self.joined()
        let laptop = d.history("laptop")
        let wal = { (try? FileManager.default.attributesOfItem(atPath: laptop + "-wal")[.size] as? Int) ?? 0 }
        // One log: left in the WAL, unsynced.
        try d.routine("desk", ["done", "FILE", "read", "--date", "2026-11-24"])
        #expect(try d.routine("laptop", ["sync"]).stdout == "1 log from desk\n")
        #expect(wal() > 0)
        // Two thousand logs: far more than the WAL may keep, so the file holds them.
        var lines = ""
        for day in 0..<2000 {
            let date = CalendarDate(year: 2025, month: 1, day: 1).adding(days: day).description
            lines +=
                #"{"date":"\#(date)","routine":"Sync","result":"completed","reachedEnd":false,"#
                + #""started":"\#(date)T07:00:00.000Z","ended":"\#(date)T07:00:00.000Z","utcOffset":"+00:00","path":"sync.rt","#
                + #""sourceHash":"x","kind":"log","steps":[{"step":1,"node":"water","kind":"habit","title":"Water","result":"done","at":"\#(date)T07:00:00.000Z","seconds":null}]}"#
                + "\n"
        }
        let file = d.dir.appendingPathComponent("year.jsonl").path
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        try d.routine("desk", ["history", "import", file])
        let came = try d.routine("laptop", ["sync"]).stdout
        #expect(came.hasPrefix("2000 "), "\(came)")
        #expect(wal() == 0, "\(wal()) bytes left in the WAL")
        #expect(try d.export("laptop") == (try d.export("desk")))
    }
}
