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
        ("rt, a limit of 0 (no smoking)", "routine \"R\"\nhabit smoke \"Cigarettes\" target at most 0\n", .rt, "target=at-most-0"),
        ("yaml, a limit of 0", "routine: R\nnodes:\n  - habit: smoke\n    title: Cigarettes\n    at-most: 0\n", .yaml, "target=at-most-0"),
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
        ("a goal of 0", "routine \"R\"\nhabit c \"C\" target 0\n", .rt, "E109"),
        ("a goal of 0 in YAML", "routine: R\nnodes:\n  - habit: c\n    title: C\n    target: 0\n", .yaml, "E109"),
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
        let none = TargetValue(amount: 0, atMost: true)
        #expect([0, 0.5, 1].map(none.isMet(by:)) == [true, false, false])
        #expect([0, 0.5, 1].map(none.achievement(of:)) == [1, 0, 0])
    }

    /// The graph labels a limit as a limit, in DOT as in Mermaid.
    @Test func theGraphLabelsTheLimit() {
        let routine = load("routine \"R\"\nhabit coffee \"Coffee\" target at most 2 cups -> water\nhabit water \"Water\" target 8 glasses\n").routine
        for (name, text) in [
            ("dot", DOTWriter.write(GraphView(routine, showProblems: false))),
            ("mermaid", MermaidWriter.write(GraphView(routine, showProblems: false))),
        ] {
            #expect(text.contains("at most 2 cups"), "\(name): \(text)")
            #expect(!text.contains("target 2"), "\(name): \(text)")
            #expect(text.contains("8 glasses"), "\(name): \(text)")
        }
    }

    /// What every view says of a value against a target: a limit as a limit, over it as over.
    static let valueTexts: [(TargetValue, Double, String, String)] = [
        (TargetValue(amount: 8, unit: "glasses"), 5, "5 of 8 glasses", "target 8 glasses"),
        (TargetValue(amount: 2, unit: "cups", atMost: true), 1, "1 · at most 2 cups", "at most 2 cups"),
        (TargetValue(amount: 2, unit: "cups", atMost: true), 2, "2 · at most 2 cups", "at most 2 cups"),
        (TargetValue(amount: 2, unit: "cups", atMost: true), 3, "3 · over the limit of 2 cups", "at most 2 cups"),
        (TargetValue(amount: 0, atMost: true), 0, "0 · at most 0", "at most 0"),
        (TargetValue(amount: 0, atMost: true), 1, "1 · over the limit of 0", "at most 0"),
    ]

    @Test(arguments: valueTexts)
    func aValueIsSaidAgainstItsBound(_ target: TargetValue, _ value: Double, _ said: String, _ dayText: String) {
        #expect(target.valueText(value) == said)
        #expect(target.dayText == dayText)
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

    static let bounds: [(String, String, AttributeChanges, String)] = [
        ("a goal made a limit", "target 2 cups", AttributeChanges(atMost: true), "target at most 2 cups"),
        ("a limit made a goal", "target at most 2 cups", AttributeChanges(atMost: false), "target 2 cups"),
        ("a new amount and its bound", "target 2 cups", AttributeChanges(target: .set(3), atMost: true), "target at most 3 cups"),
        ("a limit of 0 (no smoking)", "target 2 cups", AttributeChanges(target: .set(0), atMost: true), "target at most 0 cups"),
        ("the bound said again", "target at most 2 cups", AttributeChanges(atMost: true), "target at most 2 cups"),
    ]

    /// The builder's "at least / at most" choice rewrites the target's words and no other byte:
    /// the spacing, the comments and the attributes around it stay as written.
    @Test(arguments: bounds)
    func theBoundIsAMinimalEdit(_ name: String, _ before: String, _ changes: AttributeChanges, _ after: String) throws {
        func text(_ target: String) -> String {
            "routine \"R\"\n# one in the morning\nhabit c   \"C\"  \(target)  on mon tue -> d  # after\nhabit d \"D\"\n"
        }
        let outcome = try RoutineEditor.apply(.setAttributes(id: "c", changes), to: SourceFile(name: "test.rt", text: text(before))).get()
        #expect(String(decoding: outcome.bytes, as: UTF8.self) == text(after), "\(name)")
    }

    /// A goal of 0 stays refused when the bound is turned back to a goal (E109).
    @Test func aGoalOfZeroIsStillRefused() {
        let file = SourceFile(name: "test.rt", text: "routine \"R\"\nhabit c \"C\" target at most 0\n")
        guard case .failure(let refusal) = RoutineEditor.apply(.setAttributes(id: "c", AttributeChanges(atMost: false)), to: file) else {
            Issue.record("a goal of 0 was written")
            return
        }
        #expect(refusal.code.rawValue == "E109", "\(refusal.message)")
    }

    /// A habit added as a limit, as the builder's add dialog sends it.
    @Test func aHabitIsAddedWithALimit() throws {
        let file = SourceFile(name: "test.rt", text: "routine \"R\"\nhabit d \"D\"\n")
        let op = RoutineEditOp.addHabit(
            id: "smoke", title: "Cigarettes", after: nil, attributes: AttributeChanges(target: .set(0), unit: .set("cigarettes"), atMost: true))
        let text = String(decoding: try RoutineEditor.apply(op, to: file).get().bytes, as: UTF8.self)
        #expect(text.contains("habit smoke \"Cigarettes\" target at most 0 cigarettes\n"), "\(text)")
    }
}
