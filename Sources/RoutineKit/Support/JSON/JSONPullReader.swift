/// Reads a JSON text in one pass over its bytes, pulling only what the caller asks for: each
/// member's key is handed over in place, and the caller reads the value (``string()``,
/// ``raw()``, ``object(_:)``, ``array(_:)``) or skips it (``skip()``). Nothing is built for
/// what is skipped. The studio reads `dot -Tjson0` with it: Graphviz writes every attribute of
/// every node and edge, a few hundred kilobytes for a 200-node routine, and ``JSONParser``'s
/// tree spent more time building what the layout never uses than `dot` spent writing it.
/// Lenient where that costs nothing: a malformed value that is skipped may pass unnoticed.
/// Inlinable, so that a caller in another module (the studio) gets the loop compiled with its
/// own closures, as when the reader lived beside it.
public struct JSONPullReader {
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var at = 0

    @inlinable public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The whole text read as one object; false when it is not JSON.
    @inlinable public mutating func readObject(_ member: (inout JSONPullReader, Key) -> Bool) -> Bool {
        guard object(member) else { return false }
        skipSpace()
        return true
    }

    /// A member's name, where it lies in the text: compared in place, never copied.
    public struct Key {
        @usableFromInline let bytes: ArraySlice<UInt8>
        @inlinable init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        /// Whether the key is `name`, byte for byte (escapes are not undone).
        @inlinable public func `is`(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { $0.elementsEqual(bytes) }
        }
    }

    /// An object, handing each member's key to `member`, which reads its value (with `string`,
    /// `object`, `array`) or skips it (`skip`).
    @inlinable public mutating func object(_ member: (inout JSONPullReader, Key) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = rawString(), take(UInt8(ascii: ":")), member(&self, Key(bytes: bytes[key.range])) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// An array, handing each element to `element` to read or skip.
    @inlinable public mutating func array(_ element: (inout JSONPullReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// A string value, its escapes undone (`\uXXXX` is kept as written: the members the
    /// studio reads hold none).
    @inlinable public mutating func string() -> String? {
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
    @inlinable public mutating func raw() -> ArraySlice<UInt8>? {
        skipSpace()
        guard let raw = rawString(), !raw.escaped else { return nil }
        return bytes[raw.range]
    }

    /// Any value, read past.
    @inlinable public mutating func skip() -> Bool {
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

    @inlinable static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A || byte == 0x0D
            || byte == 0x09
    }

    /// A string's bytes between its quotes, and whether any is escaped.
    @inlinable mutating func rawString() -> (range: Range<Int>, escaped: Bool)? {
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

    @inlinable mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    @inlinable mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }
}
