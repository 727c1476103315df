import Testing

@testable import RoutineTerminal

/// The editor's keys, as readline's: the text and the cursor after each sequence.
struct LineEditorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let keys: [Key]
        let text: String
        let cursor: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "typing", keys: [.text("hello")], text: "hello", cursor: 5),
        Case(name: "left then insert", keys: [.text("hllo"), .left, .left, .left, .text("e")], text: "hello", cursor: 2),
        Case(name: "backspace removes an emoji whole", keys: [.text("a😀"), .backspace], text: "a", cursor: 1),
        Case(
            name: "home and end, Ctrl-A and Ctrl-E", keys: [.text("bc"), .home, .text("a"), .end, .text("d"), .control("a"), .control("e")],
            text: "abcd", cursor: 4),
        Case(name: "delete at the cursor", keys: [.text("abc"), .home, .delete], text: "bc", cursor: 0),
        Case(name: "Ctrl-U kills to the start", keys: [.text("skip this"), .left, .left, .left, .left, .control("u")], text: "this", cursor: 0),
        Case(name: "Ctrl-W kills the word before", keys: [.text("not so good"), .control("w")], text: "not so ", cursor: 7),
        Case(name: "Ctrl-W with spaces before the cursor", keys: [.text("not so  "), .control("w")], text: "not ", cursor: 4),
        Case(name: "cursor keys stop at the ends", keys: [.text("ab"), .right, .home, .left, .backspace], text: "ab", cursor: 0),
        Case(name: "a paste loses its control characters", keys: [.text("a\u{7}b\tc")], text: "abc", cursor: 3),
        Case(name: "up, down and escape do nothing", keys: [.text("x"), .up, .down, .escape, .ignored], text: "x", cursor: 1),
    ]

    @Test(arguments: cases)
    func edits(_ c: Case) {
        var editor = LineEditor()
        for key in c.keys { _ = editor.apply(key) }
        #expect(editor.text == c.text, "\(c.name)")
        #expect(editor.cursor == c.cursor, "\(c.name)")
    }

    @Test func enterSubmitsCtrlCInterruptsCtrlDEndsAnEmptyLine() {
        var editor = LineEditor()
        #expect(editor.apply(.control("d")) == .endOfInput)
        #expect(editor.apply(.text("ok")) == .edited)
        #expect(editor.apply(.control("d")) == .nothing, "at the end of a line, Ctrl-D deletes nothing")
        #expect(editor.apply(.enter) == .submit("ok"))
        #expect(editor.apply(.control("c")) == .interrupt)
        #expect(editor.apply(.control("z")) == .suspend)
        #expect(editor.apply(.invalid) == .refused)
    }

    @Test func renderMovesBackToTheCursorInColumns() {
        var editor = LineEditor()
        _ = editor.apply(.text("日本x"))
        _ = editor.apply(.left)
        let (output, column) = editor.render(from: 5)
        #expect(output == "\u{1B}[5D日本x\u{1B}[K\u{1B}[1D")
        #expect(column == 4)
    }
}
