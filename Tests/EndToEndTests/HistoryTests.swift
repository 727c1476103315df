import Foundation
import Testing

/// `routine run` with a history, `routine log` and `routine history`: each test has a history
/// file of its own in a temporary folder.
@Suite(.serialized)
struct HistoryTests {
    static let answers = "done\n\nGreat\ns\n\nd\n\n7\n"

    /// The runs in `history`, oldest first, as JSON objects.
    func runs(_ history: String) throws -> [[String: Any]] {
        let result = try execute(["history", "export", "--history", history])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func steps(_ run: [String: Any]) -> [[String: Any]] { run["steps"] as? [[String: Any]] ?? [] }

    func integrity(_ history: String) throws -> String {
        let script = "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])"
        return try shell("python3 -c \"\(script)\" '\(history)'").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aScriptedRunIsRecordedAndLogged() throws {
        let history = freshHistoryPath()
        let run = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"], stdin: Self.answers)
        #expect(run.status == 0, "\(run.stderr)")
        let log = try execute(["log", "--history", history, "--json"])
        let line = try #require(log.stdout.split(separator: "\n").first)
        #expect(line.hasPrefix(#"{"date":"2026-11-23","routine":"Morning","result":"completed","reachedEnd":false,"started":""#))
        #expect(line.contains(#""path":"\#(packageRoot.path)/routines/morning.rt""#))
        #expect(
            line.contains(
                #"{"step":3,"node":"mood","kind":"question","title":"How are you feeling today?","result":"answered","option":"Great!","index":1,"#))
        #expect(
            line.contains(#"{"step":8,"node":"water2","kind":"habit","title":"Drink water","result":"done","value":7,"target":8,"unit":"glasses","#))
        let recorded = try #require(try runs(history).first)
        #expect(steps(recorded).map { $0["result"] as? String } == ["done", "done", "answered", "skipped", "done", "done", "done", "done"])

        let table = try execute(["log", "routines/morning.rt", "--history", history])
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("2026-11-23  Mon  "))
        #expect(table.stdout.contains("completed  6 done, 1 skipped, 0 not scheduled · water2 7/8"))
        let day = try execute(["log", "routines/morning.rt", "--history", history, "--date", "2026-11-23"])
        #expect(day.stdout.hasPrefix("Morning · Monday 2026-11-23 · "))
        // A script is not timed: no step shows a time.
        #expect(day.stdout.contains("\n  3. How are you feeling today? Great!\n"))
        #expect(day.stdout.contains("\n  4. Run: skipped\n"))
        #expect(day.stdout.contains("\n  8. Drink water: 7 of 8 glasses\n"))
        let none = try execute(["log", "routines/workout.rt", "--history", history])
        #expect(none.stdout == "no runs recorded of 'Home workout'\n")
    }

    @Test func aRunKilledMidwayResumesWhereItStopped() throws {
        let history = freshHistoryPath()
        let process = Process()
        process.executableURL = routineBinary
        process.arguments = ["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"]
        process.currentDirectoryURL = packageRoot
        process.environment = testEnvironment()
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("\n\nGreat\n".utf8))
        // Wait until the three decisions are committed, then kill without warning.
        let deadline = Date().addingTimeInterval(20)
        var recorded = 0
        while Date() < deadline, recorded < 3 {
            Thread.sleep(forTimeInterval: 0.05)
            recorded = try runs(history).first.map { steps($0).count } ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(recorded == 3)
        #expect(try integrity(history) == "ok")
        let killed = try #require(try runs(history).first)
        #expect(killed["result"] as? String == "unfinished")

        let resumed = try execute(
            ["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23", "--resume", "--json"], stdin: "s\n\nd\n\n7\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains(#"{"event":"resume","step":4,"#))
        #expect(resumed.stdout.contains(#""kept":3,"dropped":0}"#))
        let all = try runs(history)
        #expect(all.count == 1)
        #expect(all[0]["result"] as? String == "completed")
        #expect(steps(all[0]).map { $0["node"] as? String } == ["water", "stretch", "mood", "run", "shower", "meditate", "plan", "water2"])
        #expect(try integrity(history) == "ok")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGINT, Int32(130))])
    func aSignalEndsTheRunAsInterrupted(_ signal: Int32, _ status: Int32) throws {
        let history = freshHistoryPath()
        let (process, out, err) = prepare(
            routineBinary, ["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"], environment: [:], in: packageRoot)
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data("\n".utf8))
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try runs(history).first.map({ steps($0).count }) != 1 { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, signal)
        let result = collect(process, out, err)
        #expect(result.status == status)
        #expect(result.stdout.contains("Morning: interrupted"))
        let run = try #require(try runs(history).first)
        #expect(run["result"] as? String == "interrupted")
        #expect(steps(run).count == 1)
    }

    @Test func scriptsStartFreshUnlessToldAndFreshKeepsTheOldRun() throws {
        let history = freshHistoryPath()
        let base = ["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"]
        #expect(try execute(base, stdin: "\n").status == 3)
        #expect(try execute(base, stdin: "\n\n").status == 3)
        #expect(try execute(base + ["--fresh"], stdin: "\n").status == 3)
        let all = try runs(history)
        #expect(all.map { $0["result"] as? String } == ["incomplete", "incomplete", "incomplete"])
        // The fresh run passes over the water the earlier runs did, then records the stretch.
        #expect(all.map { steps($0).count } == [1, 2, 2])
        let nothing = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2026-11-24", "--resume"], stdin: "q\n")
        #expect(nothing.stderr.contains("no unfinished run of 'Morning' on 2026-11-24 to resume; starting a new one"))
        let clash = try execute(base + ["--resume", "--fresh"])
        #expect(clash.status == 64)
    }

    @Test func noHistoryWritesNothing() throws {
        let home = try temporaryDirectory()
        let history = home.appendingPathComponent("h.sqlite").path
        let off = try execute(["run", "routines/morning.rt", "--no-history", "--history", history], stdin: "q\n")
        #expect(off.status == 64)
        let flag = try execute(["run", "routines/morning.rt", "--no-history"], stdin: "q\n", environment: ["ROUTINE_HISTORY": history])
        #expect(flag.status == 0, "\(flag.stderr)")
        let variable = try execute(["run", "routines/morning.rt"], stdin: "q\n", environment: ["ROUTINE_HISTORY": "off", "HOME": home.path])
        #expect(variable.status == 0, "\(variable.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
        // Without any of them, the history goes to the XDG place under HOME.
        let recorded = try execute(
            ["run", "routines/morning.rt"], stdin: "q\n", environment: ["ROUTINE_HISTORY": "", "XDG_DATA_HOME": "", "HOME": home.path])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/routine/history.sqlite"))
    }

    @Test func exportAndImportRoundTrip() throws {
        let history = freshHistoryPath()
        for (date, answers) in [("2026-11-22", "\n\n5\n\n"), ("2026-11-23", Self.answers), ("2026-11-24", "\n\nq\n")] {
            _ = try execute(["run", "routines/morning.rt", "--history", history, "--date", date], stdin: answers)
        }
        _ = try execute(["run", "routines/workout.rt", "--history", history, "--date", "2026-11-23"], stdin: "\n")
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("runs.jsonl").path
        let exported = try execute(["history", "export", "--history", history, "-o", file])
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 4)

        let copy = freshHistoryPath()
        let imported = try execute(["history", "import", file, "--history", copy])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "imported 4 runs into '\(copy)'\n")
        #expect(try execute(["history", "export", "--history", copy]).stdout == text)
        let again = try execute(["history", "import", file, "--history", copy])
        #expect(again.stderr == "imported 0 runs into '\(copy)'; 4 were already there\n")
        #expect(try execute(["history", "export", "--history", copy]).stdout == text)

        let csv = try execute(["history", "export", "--history", history, "--format", "csv"])
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first?.hasPrefix("date,routine,run_result,reached_end,started,ended,") == true)
        // The header, then a row per step: 5 on Sunday (plan passed over, water2 its target
        // for the empty line), 8 on Monday, 2 before quitting on Tuesday, 1 of the workout.
        #expect(rows.count == 1 + 5 + 8 + 2 + 1)

        let bad = dir.appendingPathComponent("bad.jsonl").path
        try (text + "{\"date\":\"2026-11-23\"}\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try execute(["history", "import", bad, "--history", freshHistoryPath()])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error[E010]: '\(bad)' line 5: 'routine' is missing"))
    }

    @Test func theLogTableAlignsNamesAndShowsTheirControlsVisibly() throws {
        func run(_ routine: String, _ date: String, values: [(String, Int)]) -> String {
            let steps = values.enumerated().map { k, v in
                #"{"step":\#(k + 1),"node":"\#(v.0)","kind":"habit","title":"T","result":"done","value":\#(v.1),"target":8,"at":"\#(date)T06:00:0\#(k).000Z","seconds":1}"#
            }
            return
                #"{"date":"\#(date)","routine":"\#(routine)","result":"completed","reachedEnd":true,"started":"\#(date)T06:00:00.000Z","ended":"\#(date)T06:01:05.000Z","utcOffset":"-05:30","path":"/p.rt","sourceHash":"h","steps":[\#(steps.joined(separator: ","))]}"#
        }
        let file = try temporaryDirectory().appendingPathComponent("runs.jsonl").path
        let lines = [
            run("Morning", "2026-11-20", values: [("a", 1)]),
            run("朝の習慣", "2026-11-21", values: [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)]),
            run("Bad\\u001B[31m\\nname", "2026-11-22", values: [("x\\u0007", 7)]),
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let history = freshHistoryPath()
        let imported = try execute(["history", "import", file, "--history", history])
        #expect(imported.status == 0, "\(imported.stderr)")
        let log = try execute(["log", "--history", history])
        #expect(log.status == 0, "\(log.stderr)")
        #expect(
            log.stdout == """
                2026-11-22  Sun  00:30  Bad\\u{1B}[31m\\u{A}name  completed  1 done, 0 skipped, 0 not scheduled · x\\u{7} 7/8                             1m 5s
                2026-11-21  Sat  00:30  朝の習慣                completed  5 done, 0 skipped, 0 not scheduled · a 1/8 · b 2/8 · c 3/8 · 2 more values  1m 5s
                2026-11-20  Fri  00:30  Morning                 completed  1 done, 0 skipped, 0 not scheduled · a 1/8                                  1m 5s

                """)
    }

    /// SQLite reads a name starting with `file:` as a URI; the history is still that file.
    @Test func aHistoryNamedLikeAURIIsAFile() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("routines/morning.rt"), to: dir.appendingPathComponent("morning.rt"))
        let run = try execute(["run", "morning.rt", "--history", "file:h.sqlite?mode=memory", "--date", "2026-11-23"], stdin: Self.answers, in: dir)
        #expect(run.status == 0 && run.stderr == "", "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("file:h.sqlite?mode=memory").path))
        let log = try execute(["log", "--history", "file:h.sqlite?mode=memory"], in: dir)
        #expect(log.stdout.hasPrefix("2026-11-23  Mon  "), "\(log.stderr)")
    }

    @Test func twoRunsAtOnceBothRecord() throws {
        let history = freshHistoryPath()
        let loop = { (file: String, answers: String) in
            "for i in 1 2 3 4 5 6 7 8; do printf '\(answers)' | \"$ROUTINE\" run \(file) --history '\(history)' --date 2026-11-23 >/dev/null || echo \"failed $?\"; done"
        }
        // Two shells, started together; each runs its routine eight times.
        let shells = try [loop("routines/morning.rt", "\\n\\n5\\n\\n7\\n"), loop("routines/evening.rt", "q\\n")].map { try startShell($0) }
        for (process, out, err) in shells {
            let result = collect(process, out, err)
            #expect(result.stdout == "", "\(result.stderr)")
            #expect(!result.stderr.contains("W009"), "\(result.stderr)")
        }
        let all = try runs(history)
        #expect(all.count == 16)
        #expect(Set(all.compactMap { $0["routine"] as? String }).count == 2)
        #expect(try integrity(history) == "ok")
    }

    @Test func aFileThatIsNotAHistoryIsRefusedAndLeftAlone() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("notes.txt").path
        try "my notes\n".write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["run", "routines/morning.rt", "--history", file], ["log", "--history", file], ["history", "export", "--history", file]] {
            let result = try execute(arguments, stdin: "q\n")
            #expect(result.status == 74)
            #expect(result.stderr.contains("error[E009]: '\(file)' is not a routine history: it is not an SQLite database"))
            #expect(result.stdout == "")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my notes\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["notes.txt"])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to drop to another user"))
    func anUnwritableHistoryFolderStillRuns() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("routine-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("routines/morning.rt"), to: dir.appendingPathComponent("morning.rt"))
        // The binary is copied by a child process: copied here, its file would be open for
        // writing while other tests start processes, which would inherit it, and running the
        // copy could then fail with "text file busy".
        let result = try shell(
            "cp \"$ROUTINE\" ./routine && printf '\\n\\n5\\n7\\n' | setpriv --reuid=nobody --regid=nogroup --clear-groups ./routine run morning.rt --date 2026-11-22 --history '\(dir.path)/h/history.sqlite'",
            in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Morning: completed"))
        #expect(result.stderr.components(separatedBy: "warning[W009]").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("this run is not being recorded: cannot write the history"))
        try? FileManager.default.removeItem(at: dir)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to drop to another user"))
    func aHistoryThisUserCannotWriteIsStillRead() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("routine-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("routines/morning.rt"), to: dir.appendingPathComponent("morning.rt"))
        let history = dir.appendingPathComponent("history.sqlite").path
        let recorded = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"], stdin: Self.answers)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let asNobody = "setpriv --reuid=nobody --regid=nogroup --clear-groups ./routine"
        // WAL mode would need to create 'history.sqlite-shm' in a folder this user cannot write.
        let read = try shell(
            "cp \"$ROUTINE\" ./routine && \(asNobody) log --history history.sqlite && \(asNobody) stats morning.rt --history history.sqlite --until 2026-11-23",
            in: dir)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.hasPrefix("2026-11-23  Mon  "))
        #expect(read.stdout.contains("completed  6 done, 1 skipped, 0 not scheduled · water2 7/8"))
        #expect(read.stdout.contains("Morning · 2026-11-23 to 2026-11-23 · 1 day, 1 with records"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "history.sqlite", "history.sqlite-checked", "morning.rt", "routine",
            ])
        // Changes still in a WAL file would be missed: refused, with the reason.
        try Data("x".utf8).write(to: URL(fileURLWithPath: history + "-wal"))
        let refused = try shell("\(asNobody) log --history history.sqlite", in: dir)
        #expect(refused.status == 66)
        #expect(
            refused.stderr == """
                routine: error[E001]: cannot read the history 'history.sqlite': it is read-only here and has changes not yet applied in \
                'history.sqlite-wal'; open it once with write access

                """, "\(refused.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to mount a small file system"))
    func aFullDiskStillRuns() throws {
        // Room for a new history's eight migrations in its WAL (about 200 KB), then filled.
        try onSmallDisk(size: "512k") { dir in
            let history = dir.appendingPathComponent("history.sqlite").path
            let first = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2026-11-22"], stdin: "\n\n5\n7\n")
            #expect(first.status == 0 && first.stderr == "", "\(first.stderr)")
            _ = try shell("dd if=/dev/zero of='\(dir.path)/filler' bs=4k 2>/dev/null; true")
            let full = try execute(["run", "routines/morning.rt", "--history", history, "--date", "2026-11-23"], stdin: Self.answers)
            #expect(full.status == 0)
            #expect(full.stdout.contains("Morning: completed"))
            #expect(full.stderr.components(separatedBy: "warning[W009]").count == 2, "\(full.stderr)")
            _ = try shell("rm -f '\(dir.path)/filler'")
            #expect(try integrity(history) == "ok")
            #expect(try runs(history).first?["date"] as? String == "2026-11-22")
        }
    }
}
