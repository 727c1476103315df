import Foundation
import RoutineKit
import TestSupport
import Testing

/// `routine stats` over a history written by real scripted runs of a small routine.
@Suite(.serialized)
struct StatsCommandTests {
    static let routine = """
        routine "Day"
        habit tea "Tea" -> mood
        question mood "How?"
          "Good" -> run
          "Tired" -> end
          then -> water
        habit run "Run" for 20m
        habit water "Water" target 8 glasses

        """

    /// A folder with `day.rt` and a history of runs on 2026-11-02 (Good), 11-03 (Tired) and
    /// 11-05 (quit at the question).
    private func recorded() throws -> URL {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("day.rt"), atomically: true, encoding: .utf8)
        for (date, answers) in [("2026-11-02", "d\n1\nd\n8\n"), ("2026-11-03", "d\n2\n"), ("2026-11-05", "s\nq\n")] {
            let result = try execute(["run", "day.rt", "--date", date, "--history", "h.sqlite", "--answers", "-"], stdin: answers, in: dir)
            #expect(result.status == 0, "\(date): \(result.stderr)")
        }
        return dir
    }

    @Test func theTableAndCalendarFollowTheDayStatuses() throws {
        let dir = try recorded()
        let result = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06", "--weeks", "3"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Day · 2026-11-02 to 2026-11-06 · 5 days, 3 with records · 2026-11-06 not run yet\n"))
        // tea: done, done, missed (no run, and it is on every way), skipped: the missed day ends the streak.
        #expect(result.stdout.contains("tea         0     2   50%   50%   50%"), "\(result.stdout)")
        #expect(result.stdout.contains("     less · ░ ▒ ▓ █ more\n"))
        #expect(!result.stdout.contains("\u{1B}["), "a pipe gets characters, not colour")
    }

    @Test func jsonAndCSVCarryEveryDay() throws {
        let dir = try recorded()
        let json = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-05", "--json"], in: dir)
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let habits = try #require(object["habits"] as? [[String: Any]])
        #expect(habits.map { $0["id"] as? String } == ["tea", "run", "water"])
        let run = habits[1]
        let statuses = (run["days"] as? [[String: Any]])?.map { $0["status"] as? String }
        // 11-05 quit at the question that decides `run`: unknown, not missed.
        #expect(statuses == ["done", "not-due", "unknown", "unknown"])
        #expect(habits[2]["targetMet"] as? Int == 1)
        let csv = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-05", "--csv"], in: dir)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "date,habit,status,value,seconds")
        #expect(lines.count == 1 + 3 * 4)
        #expect(lines.contains { $0.hasPrefix("2026-11-02,water,done,8,") })
    }

    /// The quit run of "Mini", recorded by a real run and read back from the history: the
    /// branch the answer ruled out is not-due, the habit still certain to come is missed.
    @Test func aQuitRunLeavesTheBranchNotTakenNotDue() throws {
        let dir = try temporaryDirectory()
        let mini = packageRoot.appendingPathComponent("Tests/RoutineKitTests/Fixtures/stats/mini.rt")
        try FileManager.default.copyItem(at: mini, to: dir.appendingPathComponent("mini.rt"))
        let run = try execute(["run", "mini.rt", "--date", "2026-11-02", "--history", "h.sqlite", "--answers", "-"], stdin: "d\n1\nd\nq\n", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let csv = try execute(["stats", "mini.rt", "--history", "h.sqlite", "--until", "2026-11-02", "--csv"], in: dir)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",")
        }
        #expect(rows == ["2026-11-02,a,done", "2026-11-02,left,done", "2026-11-02,right,not-due", "2026-11-02,c,missed"])
    }

    /// Two runs on one day, "Good" then "Bad": the day's answer is the last one given, in
    /// `stats --question` (text and JSON) and in `graph --stats`, which count days alike; a
    /// second day of "Good" makes a tie, and both are named.
    @Test func theDaysAnswerIsTheLastOneGiven() throws {
        let dir = try temporaryDirectory()
        try "routine \"Two\"\nquestion q \"How?\"\n  \"Good\" -> a\n  \"Bad\" -> b\nhabit a \"A\"\nhabit b \"B\"\n"
            .write(to: dir.appendingPathComponent("two.rt"), atomically: true, encoding: .utf8)
        func run(_ date: String, _ answers: String) throws {
            let result = try execute(["run", "two.rt", "--date", date, "--history", "h.sqlite", "--answers", "-"], stdin: answers, in: dir)
            #expect(result.status == 0, "\(date): \(result.stderr)")
        }
        func question(_ until: String) throws -> [String: Any] {
            let json = try execute(["stats", "two.rt", "--history", "h.sqlite", "--until", until, "--question", "q", "--json"], in: dir)
            return try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        }
        try run("2026-11-02", "1\nd\n")
        try run("2026-11-02", "2\nd\n")
        let one = try question("2026-11-02")
        #expect(one["mostChosen"] as? String == "Bad" && one["mostChosenAll"] as? [String] == ["Bad"], "\(one)")
        let chosen = (one["options"] as? [[String: Any]])?.map { ($0["chosen"] as? [String: Any])?["all"] as? Int }
        #expect(chosen == [0, 1], "one day, counted once, for its last answer")
        let rows = try execute(["stats", "two.rt", "--history", "h.sqlite", "--until", "2026-11-02"], in: dir).stdout
        #expect(rows.contains("q         \"Bad\" 100% of 1 day answered\n"), "\(rows)")
        let graph = try execute(["graph", "two.rt", "--stats", "--history", "h.sqlite", "--until", "2026-11-02"], in: dir).stdout
        #expect(graph.contains(#"label="Bad · 1×""#) && graph.contains(#"label="Good · 0×""#), "\(graph)")
        #expect(graph.contains("N× on an answer: days it was the day's answer (the last one given)"))

        try run("2026-11-03", "1\nd\n")
        let tie = try question("2026-11-03")
        #expect(tie["mostChosenAll"] as? [String] == ["Good", "Bad"] && tie["mostChosenShare"] as? Double == 0.5, "\(tie)")
        let table = try execute(["stats", "two.rt", "--history", "h.sqlite", "--until", "2026-11-03"], in: dir).stdout
        #expect(table.contains("q         \"Good\" and \"Bad\" 50% each of 2 days answered\n"), "\(table)")
    }

    @Test func questionShowsEachAnswerAndTheHabitsAfterIt() throws {
        let dir = try recorded()
        let page = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06", "--question", "mood"], in: dir)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("  \"Good\"     1 50%"), "\(page.stdout)")
        #expect(page.stdout.contains("    after \"Good\"   100% (1 of 1) · after the others    – (0 of 0)  *"), "\(page.stdout)")
        let json = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06", "--json"], in: dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let questions = try #require(object["questions"] as? [[String: Any]])
        #expect(questions.first?["id"] as? String == "mood")
        let table = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06"], in: dir)
        // One day each: a tie, both named.
        #expect(table.stdout.contains("question  most chosen\nmood      \"Good\" and \"Tired\" 50% each of 2 days answered\n"), "\(table.stdout)")
        let wrong = try execute(["stats", "day.rt", "--history", "h.sqlite", "--question", "tea"], in: dir)
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("'tea' is not a question of 'Day'"))
    }

    /// A history of a few days on a wide terminal: the calendar starts at the first recorded
    /// week, not months of empty columns before it.
    @Test func aShortHistoryDrawsAShortCalendar() throws {
        let dir = try recorded()
        let result = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-06"], environment: ["COLUMNS": "200"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\n     Nov\nMon  █\n"), "one week, Nov 2 to 6: \(result.stdout)")
    }

    /// Per-day output is written as it is made: a window of 100 years takes about the memory
    /// of one of 25 (the old output, built whole first, took several times as much).
    @Test(arguments: ["--json", "--csv"])
    func memoryDoesNotGrowWithTheWindow(_ format: String) throws {
        let dir = try recorded()
        func peakKilobytes(since: String) throws -> Int {
            let measure =
                "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
                + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
            let result = try shell(
                "python3 -c '\(measure)' \"$ROUTINE\" stats day.rt --history h.sqlite --since \(since) --until 2026-11-06 \(format)", in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let quarter = try peakKilobytes(since: "2001-11-06")
        let whole = try peakKilobytes(since: "1926-11-06")
        #expect(quarter > 0)
        #expect(Double(whole) < Double(quarter) * 1.5, "25 years: \(quarter) KB; 100 years: \(whole) KB")
    }

    /// A routine of 20,000 nodes from `routine-gen` (thousands of questions, each before
    /// thousands of habits) with one run: `--json` once wrote 175 MB over minutes, a habits
    /// table of megabytes for each question. Now each table holds its first rows and counts the
    /// rest, and `--question` still lists a question's whole table. Killed after a generous
    /// 120 s, which fails the test.
    @Test func theJSONOfAHugeRoutineIsBounded() throws {
        let dir = try temporaryDirectory()
        let generator = BuiltBinary.url(of: "routine-gen").path
        try #require(FileManager.default.isExecutableFile(atPath: generator), "routine-gen is built beside the tests")
        let made = try shell(
            "\"$GEN\" 20000 --seed 7 --out big && \"$ROUTINE\" run big.rt --date 2026-11-23 --history h.sqlite --answers big.answers >/dev/null",
            environment: ["GEN": generator], in: dir)
        try #require(made.status == 0, "\(made.stderr)")
        let stats = try shell(
            "timeout -s KILL 120 \"$ROUTINE\" stats big.rt --history h.sqlite --until 2026-11-25 --json >out.json; echo $?", in: dir)
        #expect(stats.stdout == "0\n", "the status, 137 when killed: \(stats.stderr)")
        let bytes = try Data(contentsOf: dir.appendingPathComponent("out.json"))
        #expect(bytes.count < Self.hugeJSONBound, "\(bytes.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let questions = try #require(object["questions"] as? [[String: Any]])
        let first = try #require(questions.first)
        let rows = try #require(first["habits"] as? [[String: Any]])
        #expect(rows.count == QuestionStats.habitRows)
        let omitted = try #require(first["habitsOmitted"] as? Int)
        #expect(omitted > 1_000)
        let id = try #require(first["id"] as? String)
        let whole = try shell(
            "timeout -s KILL 120 \"$ROUTINE\" stats big.rt --history h.sqlite --until 2026-11-25 --question \(id) --json", in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        let table = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
        #expect((table["habits"] as? [Any])?.count == QuestionStats.habitRows + omitted)
        #expect(table["habitsOmitted"] == nil)
    }

    /// Far below the 175 MB of every table whole; above what 14,000 habits' figures take.
    static let hugeJSONBound = 20_000_000

    @Test func explainShowsEachDueDay() throws {
        let dir = try recorded()
        let result = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-05", "--explain", "tea"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains("s = m·s + (1 − m)·v from s = 0"))
        #expect(result.stdout.contains("2026-11-04  missed  v = 0"))
        #expect(!result.stdout.contains("2026-11-05  skipped"), "a skipped day does not move the score")
    }

    @Test func anUnknownHabitIsAUsageError() throws {
        let dir = try recorded()
        let result = try execute(["stats", "day.rt", "--history", "h.sqlite", "--habit", "wter"], in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.contains("'wter' is not a habit of 'Day'; did you mean 'water'?"))
    }

    @Test func noRunsSaysSo() throws {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("day.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["stats", "day.rt", "--history", "none.sqlite", "--until", "2026-11-05"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout == "no runs of 'Day' recorded up to 2026-11-05\n")
    }

    @Test func graphStatsDrawsTheHistoryAndDotAcceptsIt() throws {
        let dir = try recorded()
        let args = ["graph", "day.rt", "--stats", "--history", "h.sqlite", "--until", "2026-11-05"]
        let result = try execute(args, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(##""tea" [shape=box, style="rounded,filled", label="Tea", fillcolor="#f5e79e""##), "\(result.stdout)")
        #expect(result.stdout.contains(#""mood" -> "run" [label="Good · 1×"]"#))
        #expect(result.stdout.contains(#""mood" -> " end" [label="Tired · 1×"]"#))
        #expect(result.stdout.contains("\" legend\" [shape=plaintext"))
        let dot = try shell("$ROUTINE " + args.joined(separator: " ") + " | dot -Tsvg > /dev/null", in: dir)
        #expect(dot.status == 0, "dot refused it: \(dot.stderr)")
        let later = try execute(args + ["--since", "2026-11-03"], in: dir)
        #expect(later.stdout.contains(#""run" [shape=box, style="rounded,dashed", label="Run\n20m", color=gray70"#), "\(later.stdout)")
    }

    /// An answer that leads to two nodes was chosen once, not once per arrow: the count is on
    /// its first arrow only, in DOT and in Mermaid.
    @Test func anAnswerLeadingToSeveralNodesIsCountedOnce() throws {
        let dir = try temporaryDirectory()
        let routine =
            "routine \"Work\"\nquestion where \"Where?\"\n  \"Office\" -> commute, desk\n  \"Home\" -> desk\nhabit commute \"Commute\"\nhabit desk \"Desk\"\n"
        try routine.write(to: dir.appendingPathComponent("work.rt"), atomically: true, encoding: .utf8)
        for date in ["2026-11-02", "2026-11-03"] {
            let run = try execute(["run", "work.rt", "--date", date, "--history", "h.sqlite", "--answers", "-"], stdin: "1\nd\nd\n", in: dir)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let args = ["graph", "work.rt", "--stats", "--history", "h.sqlite", "--until", "2026-11-05"]
        let dot = try execute(args, in: dir).stdout
        #expect(dot.contains(#""where" -> "commute" [label="Office · 2× (1)"]"#), "\(dot)")
        #expect(dot.contains(#""where" -> "desk" [label="Office (2)"]"#), "\(dot)")
        let mermaid = try execute(args + ["--format", "mermaid"], in: dir).stdout
        #expect(mermaid.contains(#"  n_where -->|"Office · 2× (1)"| n_commute"#), "\(mermaid)")
        #expect(mermaid.contains(#"  n_where -->|"Office (2)"| n_desk"#), "\(mermaid)")
    }

    @Test func graphStatsDrawsTheHistoryInMermaidToo() throws {
        let dir = try recorded()
        let args = ["graph", "day.rt", "--stats", "--history", "h.sqlite", "--until", "2026-11-05", "--format", "mermaid"]
        let result = try execute(args, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  style n_tea fill:#f5e79e\n"), "\(result.stdout)")
        #expect(result.stdout.contains(#"  n_mood -->|"Good · 1×"| n_run"#))
        #expect(result.stdout.contains(#"  n_mood -->|"Tired · 1×"| s_end"#))
        #expect(result.stdout.contains("  subgraph s_legend[\"completion rate, 2026-11-02 to 2026-11-05, "))
        #expect(result.stdout.contains("  style s_band4 fill:#8fd18f\n"))
        #expect(!result.stdout.contains("classDef faded"))
        let later = try execute(args + ["--since", "2026-11-03"], in: dir)
        #expect(later.stdout.contains("  class n_run,n_water faded\n"), "\(later.stdout)")
        #expect(!later.stdout.contains("style n_run fill"))
    }

    /// A habit due twice a week is offered until done twice in the run's ISO week, then passed
    /// over with the count; without a history it is always offered.
    @Test func aWeeklyQuotaIsCountedFromTheHistory() throws {
        let dir = try temporaryDirectory()
        try "routine \"Q\"\nhabit tea \"Tea\" -> run\nhabit run \"Run\" for 30m 2 per week\n"
            .write(to: dir.appendingPathComponent("q.rt"), atomically: true, encoding: .utf8)
        func run(_ date: String, _ extra: [String] = ["--history", "h.sqlite"]) throws -> String {
            let result = try execute(["run", "q.rt", "--date", date, "--answers", "-"] + extra, stdin: "d\nd\n", in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        #expect(try run("2026-11-02").contains("2. Run: done\n"))
        #expect(try run("2026-11-04").contains("2. Run: done\n"))
        #expect(try run("2026-11-06").contains("2. Run: done 2 of 2 this week\n"))
        #expect(try run("2026-11-06", ["--no-history"]).contains("2. Run: done\n"))
        #expect(try run("2026-11-09").contains("2. Run: done\n"), "a new week")
        let stats = try execute(["stats", "q.rt", "--history", "h.sqlite", "--until", "2026-11-16", "--csv"], in: dir)
        let run = stats.stdout.split(separator: "\n").filter { $0.contains(",run,") }.map { $0.split(separator: ",")[2] }
        #expect(
            run == [
                "done", "not-due", "done", "not-due", "not-due", "not-due", "not-due", "done", "not-due", "not-due", "not-due", "not-due", "not-due",
                "missed",
            ])
    }

    /// A run started before midnight and finished after it counts for the day it started.
    @Test func aRunThatCrossedMidnightCountsForItsFirstDay() throws {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("day.rt"), atomically: true, encoding: .utf8)
        let step = #"{"step":1,"node":"tea","kind":"habit","title":"Tea","result":"done","at":"2026-11-03T00:10:00.000Z","seconds":900}"#
        let run =
            #"{"date":"2026-11-02","routine":"Day","result":"quit","reachedEnd":false,"started":"2026-11-02T23:55:00.000Z","#
            + #""ended":"2026-11-03T00:10:00.000Z","utcOffset":"+00:00","path":"/x/day.rt","sourceHash":"fnv1a64:0000000000000000","steps":["#
            + step + "]}\n"
        try run.write(to: dir.appendingPathComponent("late.jsonl"), atomically: true, encoding: .utf8)
        let imported = try execute(["history", "import", "late.jsonl", "--history", "h.sqlite"], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        let stats = try execute(["stats", "day.rt", "--history", "h.sqlite", "--until", "2026-11-04", "--csv"], in: dir)
        let tea = stats.stdout.split(separator: "\n").filter { $0.contains(",tea,") }
        #expect(tea == ["2026-11-02,tea,done,,900", "2026-11-03,tea,missed,,"], "\(stats.stdout)")
    }
}
