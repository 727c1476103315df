/// A key, or text, as a terminal delivers it.
public enum Key: Equatable, Sendable {
    /// Printable text: a character typed (``KeyDecoder/feed(_:)`` joins a run of them).
    case text(String)
    /// Text that was pasted (between the terminal's paste brackets, or a burst that only a
    /// paste gives): typed into the line, never a key that decides anything. Its control
    /// characters, Enter among them, are already dropped.
    case paste(String)
    case enter, backspace, delete, tab, escape
    case left, right, up, down, home, end
    /// A control key: `control("a")` is Ctrl-A.
    case control(Character)
    /// Bytes that are not UTF-8: refused, never echoed.
    case invalid
    /// An escape sequence this editor does not use (function keys, mouse reports): dropped.
    case ignored
}

/// Turns the bytes read from a terminal in raw mode into keys. Bytes arrive in any chunks (a
/// slow terminal may split an escape sequence or a character between reads): an incomplete
/// sequence waits for the next ``feed(_:)``. A lone Escape cannot be told from the start of a
/// sequence until the reader has waited a moment: it then calls ``flush()``.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// Inside a bracketed paste (`ESC[200~` … `ESC[201~`).
    private var pasting = false
    /// Pasted bytes not handed out yet: the start of a character cut by the read.
    private var pasted: [UInt8] = []

    static let pasteStart = Array("\u{1B}[200~".utf8)
    static let pasteEnd = Array("\u{1B}[201~".utf8)

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence (a paste waits as long as it takes).
    public var isWaiting: Bool { !pasting && !pending.isEmpty }

    /// Whether the last ``read(_:continuingPaste:)`` was taken for a paste, made typed text.
    public private(set) var lastReadWasPaste = false

    /// The keys of one read from the terminal. Only a paste is text: one the terminal
    /// brackets, or a read of several keys that no person types at a prompt, one with a line
    /// break before its last byte, a Ctrl key, Tab or a lone Escape with any other key, or text
    /// with Backspace or Delete (Ctrl-U then `d` would empty the line and decide). A
    /// paste's printable characters come as one ``Key/paste(_:)``, the rest dropped. Anything
    /// else is keys, in order, a character of text each: `2` and Enter written at once, or two
    /// Downs of a key held down.
    /// `continuingPaste`: the read came right after a paste, as the rest of one split between
    /// reads does, and is typed text too, even a lone Enter.
    public mutating func read(_ bytes: some Sequence<UInt8>, continuingPaste: Bool = false) -> [Key] {
        let keys = feed(bytes)
        lastReadWasPaste = false
        guard !keys.isEmpty else { return [] }
        guard continuingPaste || isPaste(keys) else {
            return keys.flatMap { key -> [Key] in
                guard case .text(let text) = key, text.count > 1 else { return [key] }
                return text.map { .text(String($0)) }
            }
        }
        lastReadWasPaste = true
        var text = ""
        for key in keys {
            switch key {
            case .text(let typed), .paste(let typed): text += typed
            default: continue
            }
        }
        return text.isEmpty ? [] : [.paste(text)]
    }

    /// Whether the keys of one read are a paste: see ``read(_:continuingPaste:)``. Bytes still
    /// pending come after the last key; an Escape among them may be a lone one.
    private func isPaste(_ keys: [Key]) -> Bool {
        if pasting { return true }
        var text = false
        var editing = false
        var control = pending.first == 0x1B
        for (k, key) in keys.enumerated() {
            switch key {
            case .paste: return true
            case .enter where k < keys.count - 1 || !pending.isEmpty: return true
            case .text: text = true
            case .backspace, .delete: editing = true
            case .escape, .tab, .control: control = true
            default: break
            }
        }
        // A Ctrl key with anything else (Ctrl-C or Ctrl-Z among random bytes), or text with
        // keys that delete it; Backspace held down alone is still keys.
        return control && keys.count + (pending.isEmpty ? 0 : 1) > 1 || text && editing
    }

    /// The keys in `bytes`, each as it is (a bracketed paste as ``Key/paste(_:)``); ``read(_:continuingPaste:)``
    /// is what a terminal's reader calls.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            if pasting {
                let (next, cutMark) = takePaste(from: i)
                i = next
                // The end mark's first bytes: the rest comes with the next read.
                if cutMark { break }
                if !pasting, let text = handOutPaste(all: true) { keys.append(.paste(text)) }
                continue
            }
            if Self.starts(pending, at: i, with: Self.pasteStart) {
                pasting = true
                i += Self.pasteStart.count
                continue
            }
            guard let (key, length) = Self.decode(pending, at: i) else { break }
            i += length
            if case .text(let text) = key, case .text(let before)? = keys.last {
                keys[keys.count - 1] = .text(before + text)
            } else {
                keys.append(key)
            }
        }
        pending.removeFirst(i)
        if pasting, let text = handOutPaste(all: false) { keys.append(.paste(text)) }
        return keys
    }

    /// Moves the pasted bytes from `i` up to the paste's end (or up to what may be the start of
    /// the end mark) into ``pasted``; returns where decoding goes on, and whether it stopped at
    /// the start of an end mark cut by the read.
    private mutating func takePaste(from i: Int) -> (Int, Bool) {
        let mark = Self.pasteEnd
        var j = i
        while j < pending.count {
            if pending[j] == 0x1B {
                let available = min(mark.count, pending.count - j)
                if pending[j..<(j + available)].elementsEqual(mark[..<available]) {
                    pasted.append(contentsOf: pending[i..<j])
                    guard available == mark.count else { return (j, true) }
                    pasting = false
                    return (j + mark.count, false)
                }
            }
            j += 1
        }
        pasted.append(contentsOf: pending[i..<j])
        return (j, false)
    }

    /// The pasted text so far as typed text, keeping a character cut by the read for later
    /// unless the paste is over; nil when nothing is typable.
    private mutating func handOutPaste(all: Bool) -> String? {
        var cut = pasted.count
        if !all {
            // Back over a character's continuation bytes to its first byte, if it is incomplete.
            var k = pasted.count - 1
            while k >= 0, k >= pasted.count - 3, pasted[k] & 0xC0 == 0x80 { k -= 1 }
            if k >= 0 {
                let lead = pasted[k]
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
                if k + length > pasted.count { cut = k }
            }
        }
        let text = Self.typable(String(decoding: pasted[..<cut], as: UTF8.self))
        pasted.removeFirst(cut)
        return text.isEmpty ? nil : text
    }

    /// `text` without control and format characters (a joiner inside an emoji stays) and
    /// without the marks of bytes that were not UTF-8.
    public static func typable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { scalar in
                    switch scalar.properties.generalCategory {
                    case .control: false
                    case .format: scalar.value == 0x200D
                    default: scalar.value != 0xFFFD
                    }
                }))
    }

    private static func starts(_ b: [UInt8], at i: Int, with prefix: [UInt8]) -> Bool {
        b.count - i >= prefix.count && b[i..<(i + prefix.count)].elementsEqual(prefix)
    }

    /// What is pending after a pause: a lone Escape, or the start of a sequence that never
    /// finished (dropped).
    public mutating func flush() -> [Key] {
        guard !pasting else { return [] }
        defer { pending.removeAll() }
        if pending == [0x1B] { return [.escape] }
        return pending.isEmpty ? [] : [.ignored]
    }

    /// The key at `i`, and how many bytes it takes; nil when more bytes are needed.
    static func decode(_ b: [UInt8], at i: Int) -> (Key, Int)? {
        let byte = b[i]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x1B: return escapeSequence(b, at: i)
        case 0x00..<0x20: return (.control(Character(UnicodeScalar(byte + 0x60))), 1)
        case 0x20..<0x7F: return (.text(String(UnicodeScalar(byte))), 1)
        default: return utf8(b, at: i)
        }
    }

    private static func utf8(_ b: [UInt8], at i: Int) -> (Key, Int)? {
        let byte = b[i]
        let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xC2 && byte <= 0xDF ? 2 : 0
        guard length > 0 else { return (.invalid, 1) }
        for k in 1..<length {
            guard i + k < b.count else { return nil }
            guard b[i + k] & 0xC0 == 0x80 else { return (.invalid, k) }
        }
        guard let text = String(validating: b[i..<(i + length)], as: UTF8.self) else { return (.invalid, length) }
        // C1 controls and the like are not text.
        if text.unicodeScalars.allSatisfy({
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0.value != 0x200D
        }) {
            return (.ignored, length)
        }
        return (.text(text), length)
    }

    /// `ESC [ ... final` (CSI) or `ESC O x` (SS3); `ESC` and another key is Alt with it: dropped.
    private static func escapeSequence(_ b: [UInt8], at i: Int) -> (Key, Int)? {
        guard i + 1 < b.count else { return nil }
        switch b[i + 1] {
        case UInt8(ascii: "["):
            var j = i + 2
            // Parameters and intermediates, then one final byte from 0x40 to 0x7E.
            while j < b.count, b[j] >= 0x20, b[j] <= 0x3F { j += 1 }
            guard j < b.count else { return nil }
            let final = b[j]
            let parameters = String(decoding: b[(i + 2)..<j], as: UTF8.self)
            let key: Key
            switch final {
            case UInt8(ascii: "A"): key = .up
            case UInt8(ascii: "B"): key = .down
            case UInt8(ascii: "C"): key = .right
            case UInt8(ascii: "D"): key = .left
            case UInt8(ascii: "H"): key = .home
            case UInt8(ascii: "F"): key = .end
            case UInt8(ascii: "~"):
                switch parameters.split(separator: ";").first ?? "" {
                case "1", "7": key = .home
                case "4", "8": key = .end
                case "3": key = .delete
                default: key = .ignored
                }
            default: key = .ignored
            }
            return (key, j - i + 1)
        case UInt8(ascii: "O"):
            guard i + 2 < b.count else { return nil }
            let keys: [UInt8: Key] = [
                UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
                UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
            ]
            return (keys[b[i + 2]] ?? .ignored, 3)
        case 0x1B:
            return (.escape, 1)
        default:
            // Alt with a key: not used; the key itself is not typed either.
            guard let (_, length) = decode(b, at: i + 1) else { return nil }
            return (.ignored, 1 + length)
        }
    }
}
