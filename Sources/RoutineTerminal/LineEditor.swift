/// A one-line editor: the text typed so far and the cursor in it, changed by keys as readline
/// changes them (Left, Right, Home, End, Backspace, Delete, Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-W).
/// It decides nothing about the terminal: ``render()`` says what to draw.
public struct LineEditor: Sendable {
    /// The text, as characters (so that Backspace removes an emoji whole).
    public private(set) var characters: [Character] = []
    /// The cursor, as a character index.
    public private(set) var cursor = 0

    public init() {}

    public var text: String { String(characters) }

    /// What a key asks of the reader.
    public enum Outcome: Equatable, Sendable {
        /// The line changed (or the cursor moved): redraw it.
        case edited
        /// Enter: the line is done.
        case submit(String)
        /// Ctrl-C.
        case interrupt
        /// Ctrl-D on an empty line: the end of input.
        case endOfInput
        /// Ctrl-Z: suspend the process.
        case suspend
        /// A key that does nothing here (the bell may say so).
        case refused
        case nothing
    }

    public mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .text(let text), .paste(let text):
            // A paste keeps its printable characters only: no control character reaches the line.
            let clean = text.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
            guard !clean.isEmpty else { return .nothing }
            characters.insert(contentsOf: clean, at: cursor)
            cursor += clean.count
            return .edited
        case .enter: return .submit(text)
        case .backspace, .control("h"):
            guard cursor > 0 else { return .refused }
            characters.remove(at: cursor - 1)
            cursor -= 1
            return .edited
        case .delete:
            guard cursor < characters.count else { return .refused }
            characters.remove(at: cursor)
            return .edited
        case .left, .control("b"):
            guard cursor > 0 else { return .nothing }
            cursor -= 1
            return .edited
        case .right, .control("f"):
            guard cursor < characters.count else { return .nothing }
            cursor += 1
            return .edited
        case .home, .control("a"):
            cursor = 0
            return .edited
        case .end, .control("e"):
            cursor = characters.count
            return .edited
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
            return .edited
        case .control("k"):
            characters.removeSubrange(cursor...)
            return .edited
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
            return .edited
        case .control("c"): return .interrupt
        case .control("d"):
            if characters.isEmpty { return .endOfInput }
            guard cursor < characters.count else { return .nothing }
            characters.remove(at: cursor)
            return .edited
        case .control("z"): return .suspend
        case .invalid: return .refused
        case .tab, .escape, .up, .down, .control, .ignored: return .nothing
        }
    }

    /// The terminal columns `text` takes: wide (East Asian) and emoji characters take two.
    public static func width(_ text: some Sequence<Character>) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return scalar.properties.generalCategory == .nonspacingMark ? 0 : 1
        }
    }

    /// The escape sequences that redraw the line in place, given that the terminal's cursor is
    /// `shown` columns after the line's start: back to the start, the text, clear the rest,
    /// back to the cursor. Returns them and the new cursor column.
    public func render(from shown: Int) -> (output: String, cursorColumn: Int) {
        var out = shown > 0 ? "\u{1B}[\(shown)D" : ""
        out += text + "\u{1B}[K"
        let total = Self.width(characters)
        let column = Self.width(characters[..<cursor])
        if total > column { out += "\u{1B}[\(total - column)D" }
        return (out, column)
    }
}
