import Testing

@testable import RoutineKit

/// Every op as a text edit of a file full of comments and hand layout, which stays as it was.
struct RoutineEditorTests {
    static let base = """
        # A morning to edit.
        routine "Test"   # the name

        start -> a

        habit a "A" for 5m -> q   # first
        # before q
        question q "Q?"
          "Yes" -> b   # yes
          "No"
          then -> c

        habit b "B" target 8 glasses
        habit c "C" on mon   # last

        """

    /// `base` with each (old, new) replaced once, in order.
    static func base(_ replacements: (String, String)...) -> String {
        var text = base
        for (old, new) in replacements {
            let range = text.range(of: old)!
            text.replaceSubrange(range, with: new)
        }
        return text
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var op: RoutineEditOp
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "addHabit at the end", op: .addHabit(id: nil, title: "Make coffee", after: nil),
            expected: base + "habit make-coffee \"Make coffee\"\n"),
        Case(
            name: "addHabit after a node", op: .addHabit(id: "tea", title: "Tea", after: "a"),
            expected: base(("-> q   # first\n", "-> q   # first\nhabit tea \"Tea\"\n"))),
        Case(
            name: "addQuestion", op: .addQuestion(id: nil, text: "Rest?", options: ["Yes", "No"], after: "c"),
            expected: base(("# last\n", "# last\nquestion rest \"Rest?\"\n  \"Yes\"\n  \"No\"\n"))),
        Case(
            name: "connect a habit without an arrow", op: .connect(from: "b", option: nil, to: "c"),
            expected: base(("8 glasses", "8 glasses -> c"))),
        Case(
            name: "connect a habit with an arrow", op: .connect(from: "a", option: nil, to: "b"),
            expected: base(("-> q ", "-> q, b "))),
        Case(
            name: "connect an answer", op: .connect(from: "q", option: 1, to: "end"),
            expected: base(("\"No\"", "\"No\" -> end"))),
        Case(
            name: "connect to the gather", op: .connect(from: "q", option: nil, to: "b"),
            expected: base(("then -> c", "then -> c, b"))),
        Case(
            name: "disconnect a whole arrow", op: .disconnect(from: "a", option: nil, to: "q"),
            expected: base(("for 5m -> q   # first", "for 5m   # first"))),
        Case(
            name: "disconnect the gather", op: .disconnect(from: "q", option: nil, to: "c"),
            expected: base(("  then -> c\n", ""))),
        Case(
            name: "setName keeps the comment after it", op: .setName("Morning \"early\""),
            expected: base(("routine \"Test\"", "routine \"Morning \\\"early\\\"\""))),
        Case(
            name: "disconnect an answer", op: .disconnect(from: "q", option: 0, to: "b"),
            expected: base(("\"Yes\" -> b   # yes", "\"Yes\"   # yes"))),
        Case(
            name: "setTitle", op: .setTitle(id: "b", title: "Say \"hi\""),
            expected: base(("habit b \"B\"", "habit b \"Say \\\"hi\\\"\""))),
        Case(
            name: "setAttributes replaces and adds",
            op: .setAttributes(id: "a", AttributeChanges(duration: .set(600), days: .set([.saturday, .sunday]))),
            expected: base(("for 5m -> q", "for 10m on weekends -> q"))),
        Case(
            name: "setAttributes removes", op: .setAttributes(id: "b", AttributeChanges(target: .remove)),
            expected: base(("habit b \"B\" target 8 glasses", "habit b \"B\""))),
        Case(
            name: "setAttributes unit and quota", op: .setAttributes(id: "b", AttributeChanges(unit: .set("big cups"), perWeek: .set(3))),
            expected: base(("target 8 glasses", "target 8 \"big cups\" 3 per week"))),
        Case(
            name: "setAttributes note on a question", op: .setAttributes(id: "q", AttributeChanges(note: .set("Be honest"))),
            expected: base(("question q \"Q?\"", "question q \"Q?\" note \"Be honest\""))),
        Case(
            name: "addOption", op: .addOption(id: "q", text: "Maybe"),
            expected: base(("  \"No\"\n", "  \"No\"\n  \"Maybe\"\n"))),
        Case(
            name: "removeOption", op: .removeOption(id: "q", option: 1),
            expected: base(("  \"No\"\n", ""))),
        Case(
            name: "moveOption down", op: .moveOption(id: "q", option: 0, to: 1),
            expected: base(("  \"Yes\" -> b   # yes\n  \"No\"\n", "  \"No\"\n  \"Yes\" -> b   # yes\n"))),
        Case(
            name: "moveOption up", op: .moveOption(id: "q", option: 1, to: 0),
            expected: base(("  \"Yes\" -> b   # yes\n  \"No\"\n", "  \"No\"\n  \"Yes\" -> b   # yes\n"))),
        Case(
            name: "rename changes every reference", op: .rename(id: "a", newID: "first"),
            expected: base(("start -> a", "start -> first"), ("habit a ", "habit first "))),
        Case(
            name: "rename a target", op: .rename(id: "b", newID: "bee"),
            expected: base(("-> b ", "-> bee "), ("habit b ", "habit bee "))),
        Case(
            name: "delete removes the arrows to it", op: .delete(id: "b"),
            expected: base(("\"Yes\" -> b   # yes", "\"Yes\"   # yes"), ("habit b \"B\" target 8 glasses\n", ""))),
        Case(
            name: "delete the start node", op: .delete(id: "a"),
            expected: base(("start -> a\n\n", ""), ("habit a \"A\" for 5m -> q   # first\n", ""))),
        Case(
            name: "a new habit with its attributes",
            op: .addHabit(id: nil, title: "Read", after: nil, attributes: AttributeChanges(duration: .set(600), note: .set("a chapter"))),
            expected: base + "habit read \"Read\" for 10m note \"a chapter\"\n"),
        Case(
            name: "together: each op on the text the one before left",
            op: .together([
                .rename(id: "b", newID: "bee"), .setTitle(id: "bee", title: "Bee"),
                .setAttributes(id: "bee", AttributeChanges(target: .set(6))),
            ]),
            expected: base(("-> b ", "-> bee "), ("habit b \"B\" target 8 ", "habit bee \"Bee\" target 6 "))),
    ]

    @Test(arguments: cases)
    func opEditsTheText(_ c: Case) throws {
        let file = SourceFile(name: "test.rt", text: Self.base)
        let outcome = try RoutineEditor.apply(c.op, to: file).get()
        #expect(String(decoding: outcome.bytes, as: UTF8.self) == c.expected)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var op: RoutineEditOp
        var code: DiagnosticCode
        var message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "an empty routine name", op: .setName("  "), code: .editRefused, message: "a routine's name cannot be empty"),
        Refusal(
            name: "a cycle names its path", op: .connect(from: "c", option: nil, to: "a"), code: .cycle,
            message: "routine has a cycle: 'a' -> 'q' -> 'c' -> 'a'"),
        Refusal(name: "a taken ID", op: .rename(id: "a", newID: "b"), code: .editRefused, message: "a node is already named 'b'"),
        Refusal(
            name: "a keyword", op: .addHabit(id: "end", title: "End", after: nil), code: .editRefused,
            message: "'end' is a keyword and cannot be a node ID"),
        Refusal(
            name: "an invalid ID", op: .rename(id: "a", newID: "a b"), code: .editRefused,
            message: "'a b' is not a valid ID: an ID starts with a letter or '_' and holds letters, digits, '_' and '-'"),
        Refusal(name: "an unknown node", op: .setTitle(id: "zz", title: "Z"), code: .editRefused, message: "no node is named 'zz'"),
        Refusal(name: "an unknown target", op: .connect(from: "a", option: nil, to: "zz"), code: .editRefused, message: "no node is named 'zz'"),
        Refusal(
            name: "an answer out of range", op: .removeOption(id: "q", option: 5), code: .editRefused,
            message: "'q' has no answer 5; its answers are numbered 0 to 1"),
        Refusal(
            name: "an arrow already there", op: .connect(from: "a", option: nil, to: "q"), code: .editRefused,
            message: "'a' already leads to 'q'"),
        Refusal(
            name: "a habit attribute on a question", op: .setAttributes(id: "q", AttributeChanges(duration: .set(60))),
            code: .editRefused, message: "'q' is a question; only a note can be set on it"),
        Refusal(name: "an empty title", op: .setTitle(id: "a", title: ""), code: .emptyText, message: ""),
        Refusal(
            name: "together: a later refusal refuses the ops before it",
            op: .together([.setTitle(id: "a", title: "New"), .rename(id: "a", newID: "b")]), code: .editRefused,
            message: "a node is already named 'b'"),
        Refusal(name: "together: nothing", op: .together([]), code: .editRefused, message: "there is nothing to change"),
    ]

    @Test(arguments: refusals)
    func refused(_ r: Refusal) {
        let file = SourceFile(name: "test.rt", text: Self.base)
        guard case .failure(let diagnostic) = RoutineEditor.apply(r.op, to: file) else {
            Issue.record("accepted")
            return
        }
        #expect(diagnostic.code == r.code)
        if !r.message.isEmpty { #expect(diagnostic.message == r.message) }
    }

    @Test func anEmptyFileGetsItsRoutineLine() throws {
        let file = SourceFile(name: "dir/morning.rt", text: "")
        let outcome = try RoutineEditor.apply(.addHabit(id: nil, title: "Drink water", after: nil), to: file).get()
        #expect(String(decoding: outcome.bytes, as: UTF8.self) == "routine \"morning\"\n\nhabit drink-water \"Drink water\"\n")
    }

    @Test(arguments: [("an empty file", ""), ("a file of comments", "# to come\n"), ("no final line break", "# to come")])
    func setNameOnAnEmptyFileWritesTheRoutineLine(_ name: String, _ text: String) throws {
        let outcome = try RoutineEditor.apply(.setName("Morning"), to: SourceFile(name: "m.rt", text: text)).get()
        let expected = text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "routine \"Morning\"\n"
        #expect(String(decoding: outcome.bytes, as: UTF8.self) == expected)
        let habit = try RoutineEditor.apply(.addHabit(id: nil, title: "Water", after: nil), to: SourceFile(name: "m.rt", bytes: outcome.bytes)).get()
        #expect(String(decoding: habit.bytes, as: UTF8.self) == expected + "\nhabit water \"Water\"\n")
    }

    @Test func deleteListsTheArrowsThatGo() throws {
        let outcome = try RoutineEditor.apply(.delete(id: "c"), to: SourceFile(name: "t.rt", text: Self.base)).get()
        #expect(outcome.message == "deleted 'c' and the arrows q then -> c")
    }

    @Test func aCanonicalFileStaysCanonical() throws {
        let text = "routine \"R\"\n\nhabit a \"A\" -> q\n\nquestion q \"Q?\"\n  \"Yes\" -> a2\n  \"No\"\n\nhabit a2 \"B\"\n"
        let file = SourceFile(name: "t.rt", text: text)
        #expect(RoutineEditor.isCanonical(RoutineLoader.load(file)))
        for op: RoutineEditOp in [
            .connect(from: "q", option: 1, to: "a2"), .setAttributes(id: "a", AttributeChanges(note: .set("N"))),
            .addOption(id: "q", text: "A much longer answer"), .addHabit(id: nil, title: "X", after: "a"),
        ] {
            let outcome = try RoutineEditor.apply(op, to: file).get()
            #expect(RoutineEditor.isCanonical(RoutineLoader.load(SourceFile(name: "t.rt", bytes: outcome.bytes))), "\(op)")
        }
    }

    @Test func aBrokenFileIsNotEdited() {
        let file = SourceFile(name: "t.rt", text: "routine \"R\"\nhabit a \"A\nhabit b \"B\"\n")
        guard case .failure(let d) = RoutineEditor.apply(.setTitle(id: "b", title: "C"), to: file) else {
            Issue.record("accepted")
            return
        }
        #expect(d.code == .editRefused)
    }

    @Test func undoAndRedoRestoreTheText() throws {
        var history = EditHistory()
        var text = Array(Self.base.utf8)
        var versions = [text]
        for op: RoutineEditOp in [
            .addHabit(id: "x", title: "X", after: nil), .connect(from: "c", option: nil, to: "x"), .rename(id: "x", newID: "y"), .delete(id: "y"),
        ] {
            let after = try RoutineEditor.apply(op, to: SourceFile(name: "t.rt", bytes: text)).get().bytes
            history.record(before: text, after: after)
            text = after
            versions.append(text)
        }
        for k in stride(from: versions.count - 2, through: 0, by: -1) {
            text = try history.undoText(current: text).get()
            history.didUndo()
            #expect(text == versions[k])
        }
        #expect(!history.canUndo)
        for k in 1..<versions.count {
            text = try history.redoText(current: text).get()
            history.didRedo()
            #expect(text == versions[k])
        }
        // An undo on a file changed meanwhile is refused, not a silent overwrite.
        #expect(throws: Diagnostic.self) { try history.undoText(current: Array("changed".utf8)).get() }
    }

    @Test func theHistoryKeepsOnlyWhatEachOpChanged() throws {
        var history = EditHistory()
        let long = Array((Self.base + String(repeating: "# a comment that makes the file long\n", count: 3000)).utf8)
        var text = long
        for k in 0..<150 {
            let after = try RoutineEditor.apply(.setTitle(id: "c", title: "Title \(k)"), to: SourceFile(name: "t.rt", bytes: text)).get().bytes
            history.record(before: text, after: after)
            text = after
        }
        #expect(long.count > 100_000)
        #expect(history.keptBytes < 150 * 40, "\(history.keptBytes) bytes for 150 titles")
        for _ in 0..<150 {
            text = try history.undoText(current: text).get()
            history.didUndo()
        }
        #expect(text == long)
        // The same length but other bytes where the op was: refused.
        text = try history.redoText(current: text).get()
        history.didRedo()
        var changed = text
        if let at = changed.firstIndex(of: UInt8(ascii: "0")) { changed[at] = UInt8(ascii: "9") }
        #expect(changed != text)
        #expect(throws: Diagnostic.self) { try history.undoText(current: changed).get() }
    }
}
