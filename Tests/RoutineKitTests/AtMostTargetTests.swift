import Testing

@testable import RoutineKit

/// `target at most N` (YAML `at-most: N`): read alike in both forms, printed back by fmt and
/// convert, refused with its own codes when cut short or given beside a target, and counted
/// by the statistics as met at or under the limit.
struct AtMostTargetTests {
    static let forms: [(String, String, SourceFormat, String)] = [
        ("rt, with a unit", "routine \"R\"\nhabit coffee \"Coffee\" target at most 2 cups\n", .rt, "target=at-most-2/cups"),
        ("rt, a fraction, no unit", "routine \"R\"\nhabit c \"C\" target at most 2.5\n", .rt, "target=at-most-2.5"),
        ("rt, a quoted unit", "routine \"R\"\nhabit c \"C\" target at most 3 \"small cups\"\n", .rt, "target=at-most-3/small cups"),
        ("rt, at and most as node IDs", "routine \"R\"\nhabit at \"A\" target 2 -> most\nhabit most \"M\"\n", .rt, "habit at [A] target=2 -> most"),
        ("yaml", "routine: R\nnodes:\n  - habit: coffee\n    title: Coffee\n    at-most: 2\n    unit: cups\n", .yaml, "target=at-most-2/cups"),
        ("yaml, a target", "routine: R\nnodes:\n  - habit: w\n    title: W\n    target: 8\n", .yaml, "target=8"),
    ]

    @Test(arguments: forms)
    func bothFormsReadTheLimit(_ name: String, _ source: String, _ format: SourceFormat, _ expected: String) throws {
        let loaded = load(source, format: format)
        #expect(!loaded.hasErrors, "\(name): \(loaded.diagnostics.map(\.message))")
        #expect(dump(loaded.routine).contains(expected), "\(name): \(dump(loaded.routine))")
        try RoundTripTests.checkRoundTrips(loaded.routine)
    }

    @Test func fmtAndConvertWriteTheLimit() {
        let routine = load("routine \"R\"\nhabit coffee \"Coffee\"   target  at most 2 cups\n").routine
        #expect(RoutinePrinter.print(routine).contains("habit coffee \"Coffee\" target at most 2 cups\n"))
        let yaml = YAMLWriter.write(routine)
        #expect(yaml.contains("at-most: 2\n") && yaml.contains("unit: cups\n") && !yaml.contains("target:"), "\(yaml)")
    }

    static let refusals: [(String, String, SourceFormat, String)] = [
        ("'at' without 'most'", "routine \"R\"\nhabit c \"C\" target at 2\n", .rt, "E116"),
        ("'most' on the next line", "routine \"R\"\nhabit c \"C\" target at\nmost 2\n", .rt, "E116"),
        ("no number after 'at most'", "routine \"R\"\nhabit c \"C\" target at most\n", .rt, "E101"),
        ("a limit of 0", "routine \"R\"\nhabit c \"C\" target at most 0\n", .rt, "E109"),
        ("both in YAML", "routine: R\nnodes:\n  - habit: c\n    title: C\n    target: 8\n    at-most: 2\n", .yaml, "E209"),
        (
            "at-most on a question", "routine: R\nnodes:\n  - question: q\n    prompt: Q\n    at-most: 2\n    options: [{answer: A}, {answer: B}]\n",
            .yaml, "E106"
        ),
        ("at-most as text", "routine: R\nnodes:\n  - habit: c\n    title: C\n    at-most: many\n", .yaml, "E304"),
    ]

    @Test(arguments: refusals)
    func malformedLimitsAreRefused(_ name: String, _ source: String, _ format: SourceFormat, _ code: String) {
        let found = codes(source, format: format)
        #expect(found.contains(code), "\(name): \(found)")
    }

    @Test func theLimitIsMetAtOrUnderIt() {
        let limit = TargetValue(amount: 2, atMost: true)
        let goal = TargetValue(amount: 2)
        #expect([0, 1, 2, 2.5, 3, 4].map(limit.isMet(by:)) == [true, true, true, false, false, false])
        #expect([0, 1, 2, 2.5, 3, 4].map(goal.isMet(by:)) == [false, false, true, true, true, true])
        // Loop's share for a limit: whole at or under it, none at twice it.
        #expect([0, 2, 3, 4, 9].map(limit.achievement(of:)) == [1, 1, 0.5, 0, 0])
        #expect([0, 1, 2, 3].map(goal.achievement(of:)) == [0, 0.5, 1, 1])
    }

    static let edits: [(String, AttributeChanges, String)] = [
        ("the amount", AttributeChanges(target: .set(3)), "habit c \"C\" target at most 3 cups -> d\n"),
        ("the unit", AttributeChanges(unit: .set("mugs")), "habit c \"C\" target at most 2 mugs -> d\n"),
        ("the quota after it", AttributeChanges(perWeek: .set(3)), "habit c \"C\" target at most 2 cups 3 per week -> d\n"),
        ("removed", AttributeChanges(target: .remove), "habit c \"C\" -> d\n"),
    ]

    /// The studio's edit of a limit rewrites it whole and keeps it a limit.
    @Test(arguments: edits)
    func anEditKeepsTheLimit(_ name: String, _ changes: AttributeChanges, _ expected: String) throws {
        let file = SourceFile(name: "test.rt", text: "routine \"R\"\nhabit c \"C\" target at most 2 cups -> d\nhabit d \"D\"\n")
        let outcome = try RoutineEditor.apply(.setAttributes(id: "c", changes), to: file).get()
        #expect(String(decoding: outcome.bytes, as: UTF8.self) == "routine \"R\"\n" + expected + "habit d \"D\"\n", "\(name)")
    }
}
