/// A key, or text, as a terminal delivers it.
public enum Key: Equatable, Sendable {
    /// Printable text: one character typed, or a paste with its control characters removed.
    case text(String)
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

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence.
    public var isWaiting: Bool { !pending.isEmpty }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            guard let (key, length) = Self.decode(pending, at: i) else { break }
            i += length
            if case .text(let text) = key, case .text(let before)? = keys.last {
                keys[keys.count - 1] = .text(before + text)
            } else {
                keys.append(key)
            }
        }
        pending.removeFirst(i)
        return keys
    }

    /// What is pending after a pause: a lone Escape, or the start of a sequence that never
    /// finished (dropped).
    public mutating func flush() -> [Key] {
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
        if text.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0.value != 0x200D }) {
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
