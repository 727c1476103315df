import Foundation
import Testing

/// `routine today` in every form, on a history with logs, runs and a quota; `--check`, and
/// `--notify` through a stub notify-send that records its arguments.
@Suite(.serialized)
struct TodayCommandTests {
    /// Wednesday 2026-11-25: water logged, the run did push-ups and skipped the stretch and
    /// stopped at the question; read has met its quota on Monday and Tuesday; run is due.
    static func prepared() throws -> DoneCommandTests.Fixture {
        let f = try DoneCommandTests.Fixture()
        let title = "<b>Gym</b> & \"more\" \u{1B}[31m"
        try DoneCommandTests.routine.replacingOccurrences(
            of: "\"Gym\"", with: "\"\(title.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\u{1B}", with: "\\u{1B}"))\""
        )
        .write(toFile: f.file, atomically: true, encoding: .utf8)
        for day in ["2026-11-23", "2026-11-24"] { #expect(try f.routine(["done", "FILE", "read", "--date", day]).status == 0) }
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-25"]).status == 0)
        let run = try f.routine(["run", "FILE", "--date", "2026-11-25"], stdin: "20\ns\n")
        #expect(run.status == 3, "\(run.stderr)")
        return f
    }

    @Test func theTableSaysWhatIsDoneDueMaybeAndNotDue() throws {
        let f = try Self.prepared()
        let result = try f.routine(["today", "FILE", "--date", "2026-11-25"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { String($0).replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression) }
        #expect(lines.first == "Logs · Wednesday 2026-11-25 · 2 of 4 done · 2 maybe")
        #expect(lines.contains { $0.hasPrefix(" done Glass of water ") && $0.hasSuffix(" (logged)") })
        #expect(lines.contains { $0.hasPrefix(" done Push-ups 20 of 20 reps · ") && $0.hasSuffix(" (in a run)") })
        #expect(lines.contains { $0.hasPrefix(" skipped Stretch ") })
        #expect(lines.contains(" due Run"))
        #expect(lines.contains(" not due Read this week's quota is met (2 per week)"))
        #expect(lines.contains { $0.hasPrefix(" maybe <b>Gym</b> & \"more\" \\u{1B}[31m depends on answers not given yet") })
    }

    @Test func answersGivenByAStoppedRunRuleOutOrSettle() throws {
        let f = try Self.prepared()
        // Thursday: 'Good' answered, then the answers run out before gym.
        let run = try f.routine(["run", "FILE", "--date", "2026-11-26"], stdin: "d\n20\nd\n1\n")
        #expect(run.status == 3, "\(run.stderr)")
        let result = try f.routine(["today", "FILE", "--date", "2026-11-26", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let habits = try #require((object["routines"] as? [[String: Any]])?.first?["habits"] as? [[String: Any]])
        let status = Dictionary(
            uniqueKeysWithValues: habits.map {
                ($0["node"] as? String ?? "", ($0["status"] as? String ?? "") + ($0["reason"].map { " \($0)" } ?? ""))
            })
        #expect(status["gym"] == "due")
        #expect(status["nap"] == "not-due ruled-out")
        #expect(status["run"] == "not-due not-scheduled")
        #expect(object["pending"] as? Int == 1 && object["maybe"] as? Int == 0)
    }

    struct Form: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let expected: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let forms: [Form] = [
        Form(arguments: ["--format", "short"], expected: "2/4 · Run\n"),
        Form(arguments: ["--format", "tmux"], expected: "2/4 · Run\n"),
        Form(
            arguments: ["--format", "waybar"],
            expected: #"{"text":"2/4 · Run","tooltip":"2 of 4 done\nLogs: Run","class":"partial","percentage":50}"# + "\n"),
        Form(arguments: ["--format", "i3blocks"], expected: "2/4 done · next: Run\n2/4\n#F1FA8C\n"),
    ]

    @Test(arguments: forms)
    func statusBarForms(_ form: Form) throws {
        let f = try Self.prepared()
        let result = try f.routine(["today", "FILE", "--date", "2026-11-25"] + form.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == form.expected)
    }

    @Test func jsonHasEveryFigure() throws {
        let f = try Self.prepared()
        let result = try f.routine(["today", "FILE", "--date", "2026-11-25", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["due"] as? Int == 4 && object["done"] as? Int == 2 && object["skipped"] as? Int == 1)
        #expect(object["pending"] as? Int == 1 && object["maybe"] as? Int == 2 && object["percentage"] as? Int == 50)
        let routine = try #require((object["routines"] as? [[String: Any]])?.first)
        let habits = try #require(routine["habits"] as? [[String: Any]])
        let byNode = Dictionary(uniqueKeysWithValues: habits.map { ($0["node"] as? String ?? "", $0) })
        #expect(byNode["water"]?["by"] as? String == "log")
        #expect(byNode["pushups"]?["by"] as? String == "run" && byNode["pushups"]?["value"] as? Double == 20)
        #expect(byNode["read"]?["status"] as? String == "not-due" && byNode["read"]?["reason"] as? String == "quota-met")
        #expect(byNode["gym"]?["title"] as? String == "<b>Gym</b> & \"more\" \u{1B}[31m")
    }

    /// A limit shows with its bound, as a goal shows with its amount: before it is logged and
    /// after, in the table and in the JSON.
    @Test func anAtMostTargetIsShownWithItsBound() throws {
        let f = try DoneCommandTests.Fixture()
        try
            "routine \"Limits\"\nhabit coffee \"Coffee\" target at most 2 cups -> water\nhabit water \"Water\" target 8 glasses -> tea\nhabit tea \"Tea\" target at most 1\n"
            .write(toFile: f.file, atomically: true, encoding: .utf8)
        #expect(try f.routine(["done", "FILE", "coffee", "1", "--date", "2026-11-25"]).status == 0)
        // The time of the log is now's: shown as HH:MM.
        func timeless(_ text: String) -> String { text.replacingOccurrences(of: #"\d\d:\d\d"#, with: "HH:MM", options: .regularExpression) }
        let table = try f.routine(["today", "FILE", "--date", "2026-11-25"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            timeless(table.stdout) == """
                Limits · Wednesday 2026-11-25 · 1 of 3 done
                  done  Coffee  1 · at most 2 cups · HH:MM (logged)
                  due   Water   target 8 glasses
                  due   Tea     at most 1

                """)
        let json = try f.routine(["today", "FILE", "--date", "2026-11-25", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let habits = try #require(
            ((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["routines"] as? [[String: Any]])?.first?["habits"]
                as? [[String: Any]])
        let text = try habits.map {
            timeless(String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self))
        }
        #expect(
            text == [
                #"{"at":"HH:MM","atMost":true,"by":"log","node":"coffee","status":"done","target":2,"targetText":"at most 2 cups","title":"Coffee","unit":"cups","value":1,"valueText":"1 · at most 2 cups"}"#,
                #"{"node":"water","status":"due","target":8,"targetText":"target 8 glasses","title":"Water","unit":"glasses"}"#,
                #"{"atMost":true,"node":"tea","status":"due","target":1,"targetText":"at most 1","title":"Tea"}"#,
            ])
        // Over the limit is over, not progress.
        #expect(try f.routine(["amend", "FILE", "2026-11-25", "coffee", "3"]).status == 0)
        let over = try f.routine(["today", "FILE", "--date", "2026-11-25"])
        #expect(timeless(over.stdout).contains("  done  Coffee  3 · over the limit of 2 cups · HH:MM (logged)\n"), "\(over.stdout)")
        let day = try f.routine(["log", "FILE", "--date", "2026-11-25"])
        #expect(day.stdout.contains("1. Coffee: 3 · over the limit of 2 cups (amended)\n"), "\(day.stdout)")
        // The run's summary says it in the same words, not as "3/2".
        #expect(day.stdout.contains(" · coffee 3 (over the limit of 2)\n"), "\(day.stdout)")
        #expect(!day.stdout.contains("3/2"), "\(day.stdout)")
        let list = try f.routine(["log", "FILE"])
        #expect(list.stdout.contains(" · coffee 3 (over the limit of 2)"), "\(list.stdout)")
    }

    /// A bar whose text names a question as the next step never says "all done" beneath it.
    @Test func theTooltipNamesTheQuestionTheBarShows() throws {
        let f = try DoneCommandTests.Fixture()
        try "routine \"Q\"\nhabit water \"Water\" -> mood\nquestion mood \"Mood?\"\n  \"Good\" -> gym\n  \"Bad\" -> end\nhabit gym \"Gym\"\n"
            .write(toFile: f.file, atomically: true, encoding: .utf8)
        #expect(try f.routine(["done", "FILE", "water", "--date", "2026-11-25"]).status == 0)
        let bar = try f.routine(["today", "FILE", "--date", "2026-11-25", "--format", "waybar"])
        #expect(
            bar.stdout
                == #"{"text":"1/1 · mood?","tooltip":"1 of 1 done\nnext: mood? (its answer decides what is due)","class":"done","percentage":100}"#
                + "\n", "\(bar.stdout)")
        #expect(!bar.stdout.contains("all done"))
    }

    @Test func markupInTitlesIsEscapedForTheBars() throws {
        let f = try DoneCommandTests.Fixture()
        try "routine \"<i>Bars</i>\"\nhabit gym \"<b>Gym</b> & 'more' \\u{1B}[31m\"\n".write(toFile: f.file, atomically: true, encoding: .utf8)
        let bar = try f.routine(["today", "FILE", "--format", "waybar"])
        #expect(bar.status == 0, "\(bar.stderr)")
        #expect(
            bar.stdout
                == #"{"text":"0/1 · &lt;b&gt;Gym&lt;/b&gt; &amp; &apos;more&apos; \\u{1B}[31m","tooltip":"0 of 1 done\n&lt;i&gt;Bars&lt;/i&gt;: &lt;b&gt;Gym&lt;/b&gt; &amp; &apos;more&apos; \\u{1B}[31m","class":"none","percentage":0}"#
                + "\n")
        let i3 = try f.routine(["today", "FILE", "--format", "i3blocks"])
        #expect(i3.stdout == "0/1 done · next: &lt;b&gt;Gym&lt;/b&gt; &amp; &apos;more&apos; \\u{1B}[31m\n0/1\n#FF5555\n")
    }

    @Test func withoutFilesTheRoutinesTheHistoryRecordedAreShown() throws {
        let f = try Self.prepared()
        let morning = packageRoot.appendingPathComponent("routines/morning.rt").path
        #expect(try execute(["done", morning, "water", "--date", "2026-11-25", "--history", f.history]).status == 0)
        let both = try f.routine(["today", "--date", "2026-11-25", "--json"])
        #expect(both.status == 0, "\(both.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
        let names = (object["routines"] as? [[String: Any]])?.compactMap { $0["routine"] as? String }
        #expect(Set(names ?? []) == ["Logs", "Morning"])
        let empty = try execute(["today", "--history", f.dir.appendingPathComponent("none.sqlite").path])
        #expect(empty.status == 64 && empty.stderr.contains("no routine was run in the last 30 days: name the routine files"))
    }

    @Test func checkExitsOneWhileSomethingDueIsLeft() throws {
        let f = try Self.prepared()
        #expect(try f.routine(["today", "FILE", "--date", "2026-11-25", "--check", "--format", "short"]).status == 1)
        #expect(try f.routine(["done", "FILE", "run", "--date", "2026-11-25"]).status == 0)
        let done = try f.routine(["today", "FILE", "--date", "2026-11-25", "--check", "--format", "short"])
        #expect(done.status == 0 && done.stdout == "3/4 · mood?\n")
    }

    @Test func notifySendsOneNotificationOnlyWhileSomethingIsDue() throws {
        let f = try Self.prepared()
        let bin = f.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = f.dir.appendingPathComponent("calls").path
        let stub = bin.appendingPathComponent("notify-send").path
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '\(record)'\necho --- >> '\(record)'\n".write(
            toFile: stub, atomically: true, encoding: .utf8)
        chmod(stub, 0o755)
        let path = ["PATH": bin.path + ":/usr/bin:/bin"]
        let arguments = ["today", f.file, "--date", "2026-11-25", "--notify", "--history", f.history]
        let sent = try execute(arguments, environment: path)
        #expect(sent.status == 0 && sent.stdout.isEmpty, "\(sent.stderr)")
        let calls = try String(contentsOfFile: record, encoding: .utf8)
        #expect(
            calls
                == "--app-name=routine\n--icon=appointment-soon\n--print-id\n--wait\n--action=done=Done: Run\n--action=skip=Skip\n--action=snooze=Snooze 10m\n--\n1 habit still due today (2 of 4 done)\nLogs: Run\n---\n"
        )
        #expect(try f.routine(["done", "FILE", "run", "--date", "2026-11-25"]).status == 0)
        #expect(try execute(arguments, environment: path).status == 0)
        #expect(try String(contentsOfFile: record, encoding: .utf8) == calls)

        let missing = try execute(arguments, environment: ["PATH": f.dir.path])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("error[E008]: cannot send a reminder: 'notify-send' is not on PATH"))
    }
}

/// A routine's name reaches notify-send after `--`: text, never an option.
struct NotifyOptionLikeNamesTests {
    @Test(arguments: ["-?", "--urgency=critical", "-u", "--help"])
    func aRoutineNamedLikeAnOptionIsText(_ name: String) throws {
        let dir = try temporaryDirectory()
        try "routine \"\(name)\"\nhabit water \"Water\"\n".write(to: dir.appendingPathComponent("r.rt"), atomically: true, encoding: .utf8)
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = dir.appendingPathComponent("calls").path
        // Like notify-send, the stub reads options until `--`, and fails on one it does not know.
        let stub = """
            #!/bin/sh
            while [ $# -gt 0 ]; do
              case "$1" in --) shift; break ;; --app-name=*|--icon=*|--print-id|--wait|--action=*|--replace-id=*) shift ;; *) echo "unknown option $1" >&2; exit 1 ;; esac
            done
            for a in "$@"; do printf '%s\\n' "$a"; done > '\(record)'

            """
        try stub.write(to: bin.appendingPathComponent("notify-send"), atomically: true, encoding: .utf8)
        chmod(bin.appendingPathComponent("notify-send").path, 0o755)
        let sent = try execute(["today", "r.rt", "--notify", "--history", "h.sqlite"], environment: ["PATH": bin.path + ":/usr/bin:/bin"], in: dir)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "1 habit still due today (0 of 1 done)\n\(name): Water\n")
    }
}

/// `routine done` from several processes at once, racing a run, and killed: the history stays
/// sound, and a habit is never done twice on one day.
@Suite(.serialized)
struct LogRaceTests {
    func waterDone(_ f: DoneCommandTests.Fixture, on day: String) throws -> Int {
        try f.runs().filter { $0["date"] as? String == day }.flatMap(DoneCommandTests.steps)
            .filter { $0["node"] as? String == "water" && $0["result"] as? String == "done" }.count
    }

    /// Starts every script at once, each in a shell of its own, and waits for them all.
    func together(_ scripts: [String]) throws -> [Execution] {
        try scripts.map { try startShell($0) }.map { collect($0.0, $0.1, $0.2) }
    }

    @Test func parallelLogsCompleteAHabitOnce() throws {
        let f = try DoneCommandTests.Fixture()
        let log = "\"$ROUTINE\" done '\(f.file)' water --date 2026-11-24 --history '\(f.history)'"
        let results = try together(Array(repeating: log, count: 6))
        #expect(results.filter { $0.status == 0 }.count == 1)
        #expect(results.filter { $0.status == 1 && $0.stderr.contains("error[E501]") }.count == 5)
        #expect(try waterDone(f, on: "2026-11-24") == 1)
    }

    @Test func aLogRacingARunCompletesAHabitOnce() throws {
        let f = try DoneCommandTests.Fixture()
        for k in 0..<4 {
            let day = "2026-11-2\(3 + k)"
            _ = try together([
                "printf '20\\nd\\nd\\n1\\nd\\n' | \"$ROUTINE\" run '\(f.file)' --date \(day) --history '\(f.history)' --fresh",
                "\"$ROUTINE\" done '\(f.file)' water --date \(day) --history '\(f.history)'",
            ])
            #expect(try waterDone(f, on: day) == 1, "\(day)")
        }
    }

    @Test func aKilledLogLeavesASoundHistory() throws {
        let f = try DoneCommandTests.Fixture()
        for k in 0..<8 {
            let (process, out, err) = try startShell("exec \"$ROUTINE\" done '\(f.file)' water --date 2026-11-2\(k % 4 + 3) --history '\(f.history)'")
            Thread.sleep(forTimeInterval: 0.004 * Double(k))
            kill(process.processIdentifier, SIGKILL)
            _ = collect(process, out, err)
        }
        let check = "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])"
        let result = try shell("python3 -c \"\(check)\" '\(f.history)'")
        #expect(result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
        for day in ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"] { #expect(try waterDone(f, on: day) <= 1) }
        // Whatever a kill left, the next log is either refused as already done or recorded once.
        _ = try f.routine(["done", "FILE", "water", "--date", "2026-11-23"])
        #expect(try waterDone(f, on: "2026-11-23") == 1)
    }
}
