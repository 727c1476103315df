import Foundation
import Testing

/// A history with pages overwritten, cut short, or with a writer's WAL left over: every
/// command says so with the right code, nothing writes to the damaged file, and `history
/// recover` saves exactly the runs that can still be read whole.
@Suite(.serialized)
struct DamagedHistoryTests {
    static let routine = "routines/morning.rt"

    /// A history of 300 daily runs (2,400 steps), and its export.
    static func sound() throws -> (path: String, export: String) {
        let one = freshHistoryPath()
        _ = try execute(["run", routine, "--history", one, "--date", "2025-01-01"], stdin: HistoryTests.answers)
        let line = try execute(["history", "export", "--history", one]).stdout.trimmingCharacters(in: .newlines)
        try #require(line.contains("\"date\":\"2025-01-01\""))
        var text = ""
        var day = try #require(ISO8601DateFormatter().date(from: "2025-01-01T12:00:00Z"))
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<300 {
            text += line.replacingOccurrences(of: "\"date\":\"2025-01-01\"", with: "\"date\":\"\(format.string(from: day))\"") + "\n"
            day += 86_400
        }
        let file = try temporaryDirectory().appendingPathComponent("runs.jsonl").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let path = try temporaryDirectory().appendingPathComponent("history.sqlite").path
        let imported = try execute(["history", "import", file, "--history", path])
        try #require(imported.status == 0, "\(imported.stderr)")
        return (path, try execute(["history", "export", "--history", path]).stdout)
    }

    static func overwrite(_ path: String, page: Int, count: Int) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        handle.write(Data(repeating: 0xA5, count: 4096 * count))
        try handle.close()
    }

    /// How each history is damaged.
    static let damages: [(String, @Sendable (String) throws -> Void)] = [
        ("the run table's first page overwritten", { try overwrite($0, page: 4, count: 1) }),
        ("two pages in the middle overwritten", { try overwrite($0, page: 41, count: 2) }),
        ("two pages near the end overwritten", { try overwrite($0, page: 91, count: 2) }),
        (
            "the file cut short",
            { path in
                let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
                try #require(truncate(path, off_t(size / 2)) == 0)
            }
        ),
        (
            "a writer's WAL left over, a page overwritten",
            { path in
                // A writer killed after its commit leaves the WAL beside the file, not yet applied.
                let script = """
                    import os, sqlite3, sys
                    db = sqlite3.connect(sys.argv[1], isolation_level=None)
                    db.execute("PRAGMA wal_autocheckpoint = 0")
                    db.execute("UPDATE run SET path = path || '.moved' WHERE id % 7 = 0")
                    os._exit(0)
                    """
                let file = try temporaryDirectory().appendingPathComponent("writer.py").path
                try script.write(toFile: file, atomically: true, encoding: .utf8)
                let killed = try shell("python3 '\(file)' '\(path)'")
                try #require(killed.status == 0, "\(killed.stderr)")
                try #require(FileManager.default.fileExists(atPath: path + "-wal"))
                try overwrite(path, page: 41, count: 2)
            }
        ),
    ]

    /// The bytes of the history file and of its WAL (none and empty alike: SQLite removes an
    /// empty WAL when the last connection closes, which changes nothing recorded).
    func state(_ path: String) -> [Data] {
        [FileManager.default.contents(atPath: path) ?? Data(), FileManager.default.contents(atPath: path + "-wal") ?? Data()]
    }

    @Test(arguments: damages.map(\.0))
    func everyCommandSaysSoAndNothingWritesToTheFile(_ name: String) throws {
        let (path, _) = try Self.sound()
        let damage = try #require(Self.damages.first { $0.0 == name }?.1)
        // What the read commands print when nothing is wrong.
        let copy = path + ".sound"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let until = ["--until", "2026-01-01"]
        let reads: [[String]] = [
            ["log"], ["log", "--json"], ["stats", Self.routine] + until, ["graph", Self.routine, "--stats"] + until, ["history", "export"],
        ]
        var sound: [String] = []
        for command in reads { sound.append(try execute(command + ["--history", copy]).stdout) }
        try damage(path)
        let before = state(path)

        for (command, expected) in zip(reads, sound) {
            let result = try execute(command + ["--history", path])
            // A reader either meets the damage and says so, or reads only sound pages and is exact.
            let saysDamaged =
                result.status == 74 && result.stderr.contains("error[E011]: the history '\(path)' is damaged")
                && result.stderr.contains("'routine history check'") && result.stdout.isEmpty
            #expect(saysDamaged || (result.status == 0 && result.stdout == expected), "\(name): \(command): \(result.status) \(result.stderr)")
        }
        let check = try execute(["history", "check", "--history", path])
        #expect(check.status == 74, "\(name): check: \(check.stdout) \(check.stderr)")
        #expect(check.stderr.contains("error[E011]") && !check.stdout.isEmpty, "\(name): \(check.stderr)")

        let run = try execute(["run", Self.routine, "--history", path, "--date", "2026-02-01"], stdin: HistoryTests.answers)
        #expect(run.status == 0 && run.stdout.contains("Morning: completed"), "\(name): run: \(run.stderr)")
        #expect(run.stderr.contains("warning[W009]: this run is not being recorded: the history '\(path)' is damaged"), "\(name): \(run.stderr)")
        #expect(run.stderr.contains("'routine history check'"), "\(name): \(run.stderr)")

        let export = try temporaryDirectory().appendingPathComponent("one.jsonl").path
        try (sound[4].split(separator: "\n").first.map { String($0) + "\n" } ?? "").write(toFile: export, atomically: true, encoding: .utf8)
        let imported = try execute(["history", "import", export, "--history", path])
        #expect(imported.status == 74 && imported.stderr.contains("error[E011]"), "\(name): import: \(imported.stderr)")

        let out = try temporaryDirectory().appendingPathComponent("saved.sqlite").path
        let recovered = try execute(["history", "recover", out, "--history", path])
        #expect(recovered.status == 0 && recovered.stdout.hasPrefix("saved "), "\(name): recover: \(recovered.stderr)")
        #expect(state(path) == before, "\(name): a command wrote to the damaged history")
    }

    /// The runs an independent reader (Python's sqlite3, on a copy whose header counts the
    /// pages that are there) can read whole: the run's row and every one of its steps. A WAL
    /// left beside the file is copied with it: its pages are newer than the file's, and
    /// `recover` reads them as SQLite does.
    func readableRunCount(_ path: String) throws -> Int {
        let script = """
            import os, shutil, sqlite3, sys, tempfile
            copy = tempfile.mkdtemp() + "/h.sqlite"
            shutil.copy(sys.argv[1], copy)
            if os.path.exists(sys.argv[1] + "-wal"):
                shutil.copy(sys.argv[1] + "-wal", copy + "-wal")
            with open(copy, "r+b") as f:
                size = int.from_bytes(f.read(100)[16:18], "big")
                f.seek(0, 2)
                pages = f.tell() // size
                f.seek(28)
                declared = int.from_bytes(f.read(4), "big")
                if pages < declared:
                    f.seek(28); f.write(pages.to_bytes(4, "big")); f.truncate(pages * size)
            db = sqlite3.connect(copy)
            count = 0
            for i in range(1, 301):
                try:
                    if db.execute("SELECT date, routine, startedAt, path FROM run WHERE id = ?", (i,)).fetchall():
                        db.execute("SELECT * FROM step WHERE runId = ? ORDER BY step", (i,)).fetchall()
                        count += 1
                except sqlite3.DatabaseError:
                    pass
            print(count)
            """
        let result = try shell("python3 -c '\(script)' '\(path)'")
        return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
    }

    @Test(arguments: damages.map(\.0))
    func recoverSavesExactlyTheReadableRuns(_ name: String) throws {
        let (path, export) = try Self.sound()
        let damage = try #require(Self.damages.first { $0.0 == name }?.1)
        try damage(path)
        let readable = try readableRunCount(path)
        let out = try temporaryDirectory().appendingPathComponent("saved.sqlite").path
        let recovered = try execute(["history", "recover", out, "--history", path])
        #expect(recovered.status == 0, "\(name): \(recovered.stderr)")
        #expect(
            recovered.stdout.hasPrefix("saved \(readable) run\(readable == 1 ? "" : "s") ("), "\(name): \(readable) readable: \(recovered.stdout)")
        // Each run saved is a run that was recorded, byte for byte (the WAL's changes included).
        let saved = try execute(["history", "export", "--history", out])
        #expect(saved.status == 0, "\(name): \(saved.stderr)")
        let original = Set(export.split(separator: "\n"))
        let lines = saved.stdout.split(separator: "\n")
        #expect(lines.count == readable, "\(name)")
        let moved = lines.filter { !original.contains($0) }
        #expect(moved.allSatisfy { $0.contains(".moved\"") }, "\(name): a saved run that was never recorded: \(moved.first ?? "")")
        #expect(try execute(["history", "check", "--history", out]).status == 0, "\(name)")
        // Refused when OUT exists: nothing is written over a file.
        let again = try execute(["history", "recover", out, "--history", path])
        #expect(again.status == 74 && again.stderr.contains("already exists"), "\(name): \(again.stderr)")
    }

    @Test func aSoundHistoryIsCheckedAndRecoveredWhole() throws {
        let (path, export) = try Self.sound()
        let check = try execute(["history", "check", "--history", path])
        #expect(check.status == 0 && check.stdout == "the history '\(path)' is sound: 300 runs, 2400 steps\n", "\(check.stdout)")
        let out = try temporaryDirectory().appendingPathComponent("saved.sqlite").path
        let recovered = try execute(["history", "recover", out, "--history", path])
        #expect(recovered.stdout == "saved 300 runs (2400 steps) into '\(out)'; none lost\n", "\(recovered.stdout) \(recovered.stderr)")
        #expect(try execute(["history", "export", "--history", out]).stdout == export)
        let missing = try execute(["history", "check", "--history", path + ".nothing"])
        #expect(missing.status == 66 && missing.stderr.contains("error[E001]"), "\(missing.stderr)")
    }
}
