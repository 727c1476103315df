#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decoding and encoding of `.rt` string literals.
public enum StringLiteral {
    /// The text of the literal whose content (between the quotes) is `bytes[range]`, where
    /// `bytes` are `storage`'s source: that range itself unless the literal has escapes.
    static func text(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, storage: inout TextStorage,
        diagnostics: inout DiagnosticList
    ) -> TextRef {
        guard memchr(bytes.baseAddress! + range.lowerBound, Int32(UInt8(ascii: "\\")), range.count) != nil else {
            return TextRef(start: UInt32(range.lowerBound), count: UInt32(range.count))
        }
        return storage.add(decode(bytes, range, diagnostics: &diagnostics))
    }

    /// The value of the literal whose content (between the quotes) is `bytes[range]`.
    /// An invalid escape is reported and kept as written, so one typo costs one diagnostic.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, diagnostics: inout DiagnosticList
    ) -> String {
        guard memchr(bytes.baseAddress! + range.lowerBound, Int32(UInt8(ascii: "\\")), range.count) != nil else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\"), i + 1 < range.upperBound else {
                out.append(b)
                i += 1
                continue
            }
            let e = bytes[i + 1]
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(e)
                i += 2
            case UInt8(ascii: "n"):
                out.append(0x0A)
                i += 2
            case UInt8(ascii: "t"):
                out.append(0x09)
                i += 2
            case UInt8(ascii: "u"):
                if let (scalar, length) = unicodeEscape(bytes, from: i + 2, upTo: range.upperBound) {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                    i += 2 + length
                } else {
                    let end = escapeEnd(bytes, from: i + 2, upTo: range.upperBound)
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
                    diagnostics.append(.invalidEscape(text, at: Span(start: i, end: end)))
                    out.append(contentsOf: bytes[i..<end])
                    i = end
                }
            default:
                let length = Lexer.scalarLength(e, available: range.upperBound - i - 1)
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + 1 + length)]), as: UTF8.self)
                diagnostics.append(.invalidEscape(text, at: Span(start: i, end: i + 1 + length)))
                out.append(contentsOf: bytes[i..<(i + 1 + length)])
                i += 1 + length
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `{HEX}` with 1 to 8 digits naming a Unicode scalar; returns it and the bytes used.
    private static func unicodeEscape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int) -> (Unicode.Scalar, Int)? {
        guard start < end, bytes[start] == UInt8(ascii: "{") else { return nil }
        var value: UInt32 = 0
        var i = start + 1
        while i < end, i - start <= 9, let digit = hexValue(bytes[i]) {
            value = value << 4 | digit
            i += 1
        }
        let digits = i - start - 1
        guard digits >= 1, digits <= 8, i < end, bytes[i] == UInt8(ascii: "}"), let scalar = Unicode.Scalar(value) else {
            return nil
        }
        return (scalar, i + 1 - start)
    }

    private static func escapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int) -> Int {
        guard start < end, bytes[start] == UInt8(ascii: "{") else { return start }
        var i = start + 1
        while i < end, i - start <= 10, bytes[i] != UInt8(ascii: "}"), bytes[i] != UInt8(ascii: "\"") { i += 1 }
        return i < end && bytes[i] == UInt8(ascii: "}") ? i + 1 : i
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: UInt32(b - 0x30)
        case 0x41...0x46: UInt32(b - 0x41 + 10)
        case 0x61...0x66: UInt32(b - 0x61 + 10)
        default: nil
        }
    }

    /// `value` as a literal, quotes included: every control character is escaped, so any
    /// string survives printing and parsing unchanged.
    public static func encode(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                // Bidirectional overrides too: a file that `fmt` wrote shows what it means.
                if Sanitizer.isUnsafe(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The offset of the first byte that is not part of valid UTF-8, or nil.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = bytes.count
    let raw = UnsafeRawBufferPointer(bytes)
    while i < n {
        // Eight ASCII bytes at a time: most of a routine is ASCII.
        while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        guard i < n else { break }
        let b = bytes[i]
        if b < 0x80 {
            i += 1
            continue
        }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return i
        }
        guard i + length <= n else { return i }
        guard bytes[i + 1] >= lower, bytes[i + 1] <= upper else { return i }
        for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return i }
        i += length
    }
    return nil
}
