import Testing

struct PathsCommandTests {
    @Test func listsEveryWayWithTimes() throws {
        let result = try execute(["paths", "routines/morning.rt"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                """
                1. mood: Great! · 48m
                   water, stretch, mood, run (mon wed fri), shower, meditate, plan (weekdays), water2

                """))
        #expect(result.stdout.contains("4. mood: Skip today · 5m\n   water, stretch, mood, end\n"))
        #expect(result.stdout.hasSuffix("5 ways through 'Morning' · shortest 5m · longest 48m\n"))
    }

    /// A weekly quota is marked on a way as days are: both decide whether the habit runs.
    @Test func aWeeklyQuotaIsMarkedLikeDays() throws {
        let result = try execute(
            ["paths", "-"], stdin: "routine \"W\"\nhabit run \"Run\" for 30m 3 per week -> desk\nhabit desk \"Desk\" on weekdays\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("   run (3 per week), desk (weekdays)\n"))
    }

    @Test func countOnly() throws {
        let result = try execute(["paths", "routines/morning.rt", "--count"])
        #expect(result.stdout == "5\n")
    }

    @Test func limitSaysThereIsMore() throws {
        let result = try execute(["paths", "routines/morning.rt", "--limit", "2"])
        #expect(result.stdout.contains("... and more: 5 ways in all (--limit N lists more)"))
        #expect(!result.stdout.contains("3. mood"))
    }

    @Test func whyDoesANodeRun() throws {
        let result = try execute(["paths", "routines/morning.rt", "--to", "plan"])
        #expect(
            result.stdout == """
                'plan' runs after these answers:
                  mood: Great!
                  mood: Okay
                  mood: Not so good
                  mood: Tired

                """)
        let always = try execute(["paths", "routines/morning.rt", "--to", "stretch"])
        #expect(always.stdout.contains("always: no answer needed"))
    }

    /// An unknown node is a diagnostic (E114) with the closest name, not a usage error.
    @Test(arguments: [("shwer", "did you mean 'shower'?"), ("meditat", "did you mean 'meditate'?"), ("yogaa", "its nodes are 'water'")])
    func anUnknownNodeIsADiagnostic(_ id: String, hint: String) throws {
        let result = try execute(["paths", "routines/morning.rt", "--to", id])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("routine: error[E114]: --to: no node is named '\(id)' in 'Morning'"), "\(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(result.stderr.contains(hint), "\(result.stderr)")
    }

    /// With no name close enough to be a typo, the error names the nodes there are.
    @Test func anUnknownNodeWithNoCloseNameListsTheNodes() throws {
        let result = try execute(["paths", "routines/morning.rt", "--to", "nosuch"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no node is named 'nosuch' in 'Morning'; its nodes are 'water', 'stretch', "))
        #expect(result.stderr.contains(" more\n"))
    }

    @Test func whichAnswersReachEnd() throws {
        let result = try execute(["paths", "routines/morning.rt", "--to", "end"])
        #expect(result.status == 0)
        #expect(result.stdout == "'end' is reached after these answers:\n  mood: Skip today\n")
    }

    @Test func aMistypedCommandIsNamed() throws {
        let result = try execute(["chek", "routines/morning.rt"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: 'chek' is not a routine command; did you mean 'check'?\nUsage: routine <subcommand>"))
        let far = try execute(["frobnicate"])
        #expect(far.status == 64)
        #expect(far.stderr.hasPrefix("Error: 'frobnicate' is not a routine command\n"))
    }
}
