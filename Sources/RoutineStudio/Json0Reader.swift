/// Reads `dot -Tjson0` in one pass over its bytes, keeping only the string members asked for.
/// Graphviz writes every attribute of every node and edge, a few hundred kilobytes for a
/// 200-node routine; a general JSON reader spent more time building what the layout never
/// uses than `dot` spent writing it.
struct Json0Reader {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The whole text read as one object; false when it is not JSON.
    mutating func readObject(_ member: (inout Json0Reader, Key) -> Bool) -> Bool {
        guard object(member) else { return false }
        skipSpace()
        return true
    }

    /// A member's name, where it lies in the text: compared in place, never copied.
    struct Key {
        fileprivate let bytes: ArraySlice<UInt8>
        func `is`(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { $0.elementsEqual(bytes) }
        }
    }

    /// An object, handing each member's key to `member`, which reads its value (with `string`,
    /// `object`, `array`) or skips it (`skip`).
    mutating func object(_ member: (inout Json0Reader, Key) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = rawString(), take(UInt8(ascii: ":")), member(&self, Key(bytes: bytes[key.range])) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    mutating func array(_ element: (inout Json0Reader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// A string value, its escapes undone (`\uXXXX` is kept as written: the members the
    /// studio reads hold none).
    mutating func string() -> String? {
        skipSpace()
        guard let raw = rawString() else { return nil }
        guard raw.escaped else { return String(decoding: bytes[raw.range], as: UTF8.self) }
        var out: [UInt8] = []
        var i = raw.range.lowerBound
        while i < raw.range.upperBound {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < raw.range.upperBound {
                let next = bytes[i + 1]
                switch next {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(next)
                default: out += [bytes[i], next]
                }
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A string value's bytes as written, for values known to hold no escape (numbers).
    mutating func raw() -> ArraySlice<UInt8>? {
        skipSpace()
        guard let raw = rawString(), !raw.escaped else { return nil }
        return bytes[raw.range]
    }

    /// Any value, read past.
    mutating func skip() -> Bool {
        skipSpace()
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case UInt8(ascii: "{"): return object { reader, _ in reader.skip() }
        case UInt8(ascii: "["): return array { $0.skip() }
        case UInt8(ascii: "\""): return rawString() != nil
        default:
            // A number, true, false or null: up to the next delimiter.
            let start = at
            while at < bytes.count, !Self.isDelimiter(bytes[at]) { at += 1 }
            return at > start
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A || byte == 0x0D
            || byte == 0x09
    }

    /// A string's bytes between its quotes, and whether any is escaped.
    private mutating func rawString() -> (range: Range<Int>, escaped: Bool)? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        let start = at
        var escaped = false
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return (start..<at - 1, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                at += 1
            }
            at += 1
        }
        return nil
    }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }
}

/// The numbers in Graphviz's coordinate lists ("x,y x,y", "e,x,y ..."), read in place.
struct NumberScanner {
    private let bytes: ArraySlice<UInt8>
    private var at: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        at = bytes.startIndex
    }

    var first: Double? {
        var copy = self
        return copy.next()
    }

    /// Before a point: its letter when it is marked ("e," or "s,"), else a space; nil at the end.
    mutating func mark() -> UInt8? {
        while at < bytes.endIndex, bytes[at] == 0x20 { at += 1 }
        guard at < bytes.endIndex else { return nil }
        let byte = bytes[at]
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "s"), at + 1 < bytes.endIndex, bytes[at + 1] == UInt8(ascii: ",") {
            at += 2
            return byte
        }
        return 0x20
    }

    /// The next number, skipping one separator before it.
    mutating func next() -> Double? {
        while at < bytes.endIndex, bytes[at] == UInt8(ascii: ",") || bytes[at] == 0x20 { at += 1 }
        let start = at
        var negative = false
        if at < bytes.endIndex, bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while at < bytes.endIndex {
            let byte = bytes[at]
            if byte >= 0x30, byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(byte - 0x30)
                    digits += 1
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    scale -= 1
                }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            at += 1
        }
        if at < bytes.endIndex, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            // An exponent, which Graphviz writes only for numbers far from a drawing's: the slow way.
            while at < bytes.endIndex, bytes[at] != UInt8(ascii: ","), bytes[at] != 0x20 { at += 1 }
            return Double(String(decoding: bytes[start..<at], as: UTF8.self))
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if scale > 0 { value /= Self.powers[scale] } else if scale < 0 { value *= Self.powers[-scale] }
        return negative ? -value : value
    }

    private static let powers: [Double] = (0...18).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }
}
