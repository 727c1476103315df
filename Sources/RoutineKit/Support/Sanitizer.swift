/// Makes text from a routine file, an answer or a file name safe to show at a terminal: every
/// character that could drive it (C0 and C1 controls, DEL) or reorder what is shown
/// (bidirectional overrides and isolates, line and paragraph separators) is written visibly,
/// as `\u{1B}`, the form `.rt` strings use. Machine formats (JSON, DOT, YAML) escape on their
/// own terms and never pass through here.
public enum Sanitizer {
    /// Whether `scalar` must not reach a terminal raw.
    @inline(__always)
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v >= 0x20, v < 0x7F { return false }
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
    }

    /// `text` with every unsafe character written as `\u{HEX}`; line breaks too, unless
    /// `keepingNewlines` (a note's own lines).
    public static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !(keepingNewlines && $0 == "\n") }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar), !(keepingNewlines && scalar == "\n") {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Bytes that may not be UTF-8, such as a file name: invalid bytes are written `\xFF`,
    /// everything else as ``visible(_:keepingNewlines:)`` does.
    public static func visible(bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let length = utf8Length(bytes, at: i)
            if length == 0 {
                out += "\\x" + (bytes[i] < 0x10 ? "0" : "") + String(bytes[i], radix: 16, uppercase: true)
                i += 1
            } else {
                out += visible(String(decoding: bytes[i..<(i + length)], as: UTF8.self))
                i += length
            }
        }
        return out
    }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    private static func utf8Length(_ b: [UInt8], at i: Int) -> Int {
        let first = b[i]
        let (n, low, high): (Int, UInt8, UInt8) =
            switch first {
            case 0x00...0x7F: (1, 0x80, 0xBF)
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            default: (0, 0, 0)
            }
        guard n > 0, i + n <= b.count else { return 0 }
        if n > 1, !(low...high).contains(b[i + 1]) { return 0 }
        for k in 2..<max(2, n) where !(0x80...0xBF).contains(b[i + k]) { return 0 }
        return n
    }
}
