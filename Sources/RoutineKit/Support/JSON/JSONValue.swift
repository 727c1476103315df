/// A JSON value to write, with ordered object keys, so output is deterministic and reads in a
/// sensible order. What is read is read by ``JSONParser`` into ``JSON``.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    /// Compact JSON text on one line.
    public var text: String {
        var out = ByteWriter()
        write(to: &out)
        return out.text
    }

    /// Appends the compact JSON text to `out`.
    public func write(to out: inout ByteWriter) {
        switch self {
        case .string(let s): Self.quote(s, into: &out)
        case .int(let n): out.write(n)
        case .number(let x): out.write(string: x.isFinite ? NumberText.format(x) : "null")
        case .bool(let b): out.write(b ? "true" : "false")
        case .null: out.write("null")
        case .array(let items): out.writeJSONArray(items) { $0.write(to: &$1) }
        case .object(let members): out.writeJSONObject(members) { $0.write(to: &$1) }
        }
    }

    static func quote(_ s: String, into out: inout String) {
        var bytes = ByteWriter()
        quote(s, into: &bytes)
        out += bytes.text
    }

    /// A JSON string: quotes, backslashes and control characters escaped, DEL and the C1
    /// controls (U+007F to U+009F) too, which a terminal showing the output may act on, and
    /// U+2028 and U+2029, so the output is also safe inside JavaScript.
    public static func quote(_ s: String, into out: inout ByteWriter) {
        out.byte(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            let plain = out.writePrefix(of: bytes, isPlainWord: isPlain(word:), isPlain: isPlain)
            // Every byte before `plain` is ASCII, so the rest starts a scalar.
            if plain < bytes.count { escape(String(decoding: UnsafeBufferPointer(rebasing: bytes[plain...]), as: UTF8.self), into: &out) }
        }
        out.byte(UInt8(ascii: "\""))
    }

    /// Printable ASCII other than a quote or a backslash, which JSON writes as it is.
    @inline(__always) private static func isPlain(_ b: UInt8) -> Bool {
        b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C
    }

    /// ``isPlain(_:)`` for all eight bytes of `word` at once.
    @inline(__always) private static func isPlain(word: UInt64) -> Bool {
        Lexer.isPrintableOrDelete(word: word) && !Lexer.hasByte(word, 0x22) && !Lexer.hasByte(word, 0x5C) && !Lexer.hasByte(word, 0x7F)
    }

    private static func escape(_ s: String, into out: inout ByteWriter) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.write("\\\"")
            case "\\": out.write("\\\\")
            case "\n": out.write("\\n")
            case "\r": out.write("\\r")
            case "\t": out.write("\\t")
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out.write("\\u")
                    out.write(string: String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    out.write(string: String(scalar))
                }
            }
        }
    }
}

extension ByteWriter {
    /// `[a,b]`, each element written by `element`: the one array writer of both JSON types.
    mutating func writeJSONArray<S: Sequence>(_ elements: S, _ element: (S.Element, inout ByteWriter) -> Void) {
        byte(UInt8(ascii: "["))
        for (k, item) in elements.enumerated() {
            if k > 0 { byte(UInt8(ascii: ",")) }
            element(item, &self)
        }
        byte(UInt8(ascii: "]"))
    }

    /// `{"key":value}` in the members' order, each value written by `value`.
    mutating func writeJSONObject<V, S: Sequence<(String, V)>>(_ members: S, _ value: (V, inout ByteWriter) -> Void) {
        byte(UInt8(ascii: "{"))
        for (k, (key, item)) in members.enumerated() {
            if k > 0 { byte(UInt8(ascii: ",")) }
            JSONValue.quote(key, into: &self)
            byte(UInt8(ascii: ":"))
            value(item, &self)
        }
        byte(UInt8(ascii: "}"))
    }
}
