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
        bytes.withUnsafeBufferPointer { all in
            var out = ""
            var rest = all[...]
            while !rest.isEmpty {
                let valid = firstInvalidUTF8Offset(UnsafeBufferPointer(rebasing: rest)) ?? rest.count
                out += visible(String(decoding: UnsafeBufferPointer(rebasing: rest.prefix(valid)), as: UTF8.self))
                rest = rest.dropFirst(valid)
                if let bad = rest.first {
                    out += "\\x" + (bad < 0x10 ? "0" : "") + String(bad, radix: 16, uppercase: true)
                    rest = rest.dropFirst()
                }
            }
            return out
        }
    }
}
