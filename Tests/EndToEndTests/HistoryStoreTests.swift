import Foundation
import Testing

/// The history store against hostile conditions: an empty name, damage that looks like a newer
/// version, a hot journal on a read-only mount, a full disk.
@Suite(.serialized)
struct HistoryStoreEndToEndTests {
    static let routine = "routines/morning.rt"

    /// A history with runs on two days, written through `routine run`.
    func recorded() throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("h.sqlite").path
        for date in ["2026-11-22", "2026-11-23"] {
            let run = try execute(["run", Self.routine, "--history", path, "--date", date], stdin: HistoryTests.answers)
            try #require(run.status == 0, "\(run.stderr)")
        }
        return path
    }

    @Test(arguments: [
        ["run", routine, "--history", ""], ["log", "--history", ""], ["stats", routine, "--history", ""],
        ["graph", routine, "--stats", "--history", ""], ["history", "export", "--history", ""],
        ["history", "import", "-", "--history", ""], ["history", "check", "--history", ""],
        ["history", "recover", "out.sqlite", "--history", ""],
    ])
    func anEmptyHistoryNameIsAUsageError(_ arguments: [String]) throws {
        let result = try execute(arguments, stdin: HistoryTests.answers)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("--history needs a file name"), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("W009") && !result.stderr.contains("imported"), "\(arguments)")
    }

    /// A migration this version does not know: "newer" when the file is sound, "damaged" when
    /// it is not, whatever its list of migrations says.
    @Test func newerOnlyWhenTheFileIsSound() throws {
        let path = try recorded()
        let mark = try shell(
            "python3 -c 'import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); db.execute(\"INSERT INTO grdb_migrations VALUES (?)\", (\"v99: a later version\",)); db.commit()' '\(path)'"
        )
        try #require(mark.status == 0, "\(mark.stderr)")
        let newer = try execute(["log", "--history", path])
        #expect(newer.status == 74 && newer.stderr.contains("was written by a newer version of routine"), "\(newer.stderr)")
        // The step table's pages overwritten: the same version mark, but damage.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(6 * 4096))
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let damaged = try execute(["log", "--history", path])
        #expect(damaged.status == 74 && damaged.stderr.contains("error[E011]") && !damaged.stderr.contains("newer"), "\(damaged.stderr)")
    }

    /// A writer killed mid-transaction in rollback-journal mode leaves half its changes in the
    /// file and the old pages in the journal. On a read-only mount the journal cannot be rolled
    /// back, so the history is refused, never read half-changed; with write access it is
    /// rolled back and read whole.
    @Test(.enabled(if: getuid() == 0, "needs root to bind-mount a folder read-only"))
    func aHotJournalOnAReadOnlyMountIsRefused() throws {
        let path = try recorded()
        let sound = try execute(["history", "export", "--history", path]).stdout
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let script = folder.appendingPathComponent("killed.py").path
        try """
        import os, sqlite3, sys
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA cache_size = 1")
        db.execute("BEGIN")
        db.execute("UPDATE step SET title = title || ' (half done)'")
        db.execute("DELETE FROM run WHERE date = '2026-11-23'")
        os._exit(0)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let killed = try shell("python3 '\(script)' '\(path)'")
        try #require(killed.status == 0 && FileManager.default.fileExists(atPath: path + "-journal"), "\(killed.stderr)")
        let mountPoint = try temporaryDirectory()
        let mounted = try shell("mount --bind '\(folder.path)' '\(mountPoint.path)' && mount -o remount,bind,ro '\(mountPoint.path)'")
        try #require(mounted.status == 0, "cannot bind-mount read-only here: \(mounted.stderr)")
        defer { _ = try? shell("umount '\(mountPoint.path)'") }
        let readOnly = mountPoint.appendingPathComponent("h.sqlite").path
        for command in [["history", "export"], ["log"], ["log", "--json"], ["stats", Self.routine], ["history", "check"]] {
            let result = try execute(command + ["--history", readOnly])
            #expect(result.status == 66 && result.stdout.isEmpty, "\(command): \(result.status) \(result.stdout.prefix(200))")
            #expect(result.stderr.contains("error[E001]") && result.stderr.contains("open it once with write access"), "\(command): \(result.stderr)")
        }
        _ = try shell("umount '\(mountPoint.path)'")
        // With write access the half transaction is rolled back: the history as it was.
        #expect(try execute(["history", "export", "--history", path]).stdout == sound)
    }

    /// A run on a full disk leaves a few bytes of SQLite's shared-memory file: reading the
    /// history must not need room for more, and a writer says the disk is full.
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small file system"))
    func readingNeedsNoFreeSpace() throws {
        // Room for the first run's WAL, so that it is applied and removed when the run ends.
        try onSmallDisk(size: "2m") { dir in
            let history = dir.appendingPathComponent("history.sqlite").path
            let first = try execute(["run", Self.routine, "--history", history, "--date", "2026-11-22"], stdin: "\n\n5\n7\n")
            try #require(first.status == 0 && !FileManager.default.fileExists(atPath: history + "-wal"), "\(first.stderr)")
            let sound = try execute(["history", "export", "--history", history]).stdout
            _ = try shell("dd if=/dev/zero of='\(dir.path)/filler' bs=4k 2>/dev/null; true")
            let full = try execute(["run", Self.routine, "--history", history, "--date", "2026-11-23"], stdin: HistoryTests.answers)
            #expect(full.status == 0 && full.stderr.contains("warning[W009]") && full.stderr.contains("the disk is full"), "\(full.stderr)")
            for command in [["log"], ["history", "export"], ["stats", Self.routine, "--until", "2026-11-30"]] {
                let result = try execute(command + ["--history", history])
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            #expect(try execute(["history", "export", "--history", history]).stdout == sound)
        }
    }

    /// Dates outside 1900 to 2199 are refused where they enter, with the same message.
    @Test(arguments: [
        ["run", routine, "--date", "1899-12-31"], ["run", routine, "--date", "2200-01-01"], ["log", "--date", "0001-01-01"],
        ["log", "--since", "0001-01-01"], ["stats", routine, "--since", "0001-01-01", "--until", "9999-12-31"],
        ["stats", routine, "--until", "9999-12-31"], ["graph", routine, "--stats", "--since", "1000-01-01"],
        ["off", routine, "1899-12-31"], ["off", routine, "2026-11-20", "--until", "2200-01-01"],
        ["off", routine, "1800-01-01", "--undo"], ["amend", routine, "0001-01-01", "water", "done"],
        ["done", routine, "water", "--date", "2200-01-01"],
    ])
    func aDateOutsideTheSupportedYearsIsRefused(_ arguments: [String]) throws {
        let result = try execute(arguments + ["--history", freshHistoryPath()], stdin: HistoryTests.answers)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("is outside the years routine supports, 1900 to 2199"), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(arguments)")
    }
}
