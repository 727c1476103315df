/// Reads one JSON text (RFC 8259) into a ``JSON`` value, iteratively, so that nesting costs
/// heap rather than stack; deeper than ``maximumDepth`` is refused like any malformed input.
public struct JSONParser {
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var offset: Int
    }

    public static let maximumDepth = 512

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSON {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSON in
            var parser = JSONParser(bytes: buffer)
            return try parser.parseDocument()
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private enum Container {
        case array([JSON])
        case object([String: JSON], key: String?)
    }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: i) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func parseDocument() throws(Failure) -> JSON {
        var stack: [Container] = []
        var finished: JSON?
        while true {
            skipSpace()
            // Expecting a value, or the end of an empty container.
            if case .object(let fields, nil)? = stack.last {
                guard i < bytes.count else { throw fail("unexpected end of input in an object") }
                if bytes[i] == UInt8(ascii: "}"), fields.isEmpty {
                    i += 1
                    stack.removeLast()
                    finished = .object(fields)
                } else {
                    guard bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                    let key = try parseString()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                    i += 1
                    stack[stack.count - 1] = .object(fields, key: key)
                    continue
                }
            } else if case .array(let values)? = stack.last, values.isEmpty, i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                stack.removeLast()
                finished = .array([])
            } else {
                guard i < bytes.count else { throw fail("unexpected end of input") }
                switch bytes[i] {
                case UInt8(ascii: "{"):
                    i += 1
                    guard stack.count < Self.maximumDepth else { throw fail("nested too deeply") }
                    stack.append(.object([:], key: nil))
                    continue
                case UInt8(ascii: "["):
                    i += 1
                    guard stack.count < Self.maximumDepth else { throw fail("nested too deeply") }
                    stack.append(.array([]))
                    continue
                case UInt8(ascii: "\""): finished = .string(try parseString())
                case UInt8(ascii: "t"):
                    try literal("true")
                    finished = .bool(true)
                case UInt8(ascii: "f"):
                    try literal("false")
                    finished = .bool(false)
                case UInt8(ascii: "n"):
                    try literal("null")
                    finished = .null
                default: finished = .number(try parseNumber())
                }
            }
            // A value is complete: put it in its container, then close what it completes.
            while let value = finished {
                finished = nil
                guard let top = stack.popLast() else {
                    skipSpace()
                    guard i == bytes.count else { throw fail("unexpected text after the value") }
                    return value
                }
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of input") }
                switch top {
                case .array(var values):
                    values.append(value)
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        stack.append(.array(values))
                    } else if bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        finished = .array(values)
                    } else {
                        throw fail("expected ',' or ']'")
                    }
                case .object(var fields, let key):
                    fields[key!] = value
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        skipSpace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                        let next = try parseString()
                        skipSpace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                        i += 1
                        stack.append(.object(fields, key: next))
                    } else if bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        finished = .object(fields)
                    } else {
                        throw fail("expected ',' or '}'")
                    }
                }
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[i..<(i + n)]).elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: n))
        else {
            throw fail("unexpected character")
        }
        i += n
    }

    private mutating func parseNumber() throws(Failure) -> Double {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digits = i
        while i < bytes.count,
            (0x30...0x39).contains(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e")
                || bytes[i] == UInt8(ascii: "E") || bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")
        {
            i += 1
        }
        guard i > digits, (0x30...0x39).contains(bytes[digits]),
            let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        else {
            i = start
            throw fail("unexpected character")
        }
        // RFC 8259 lets a reader limit the range: a number no Double holds (1e400) is refused
        // rather than read as infinity, which no member of any message or line may be.
        guard value.isFinite else {
            i = start
            throw fail("a number out of range")
        }
        return value
    }

    private mutating func parseString() throws(Failure) -> String {
        i += 1
        let start = i
        // The common case has no escapes: one copy of the bytes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        guard i < bytes.count else { throw fail("unterminated string") }
        if bytes[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return try validated(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        }
        var out = Array(bytes[start..<i])
        out.reserveCapacity(i - start + 64)
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return try out.withUnsafeBufferPointer { (buffer) throws(Failure) -> String in try validated(buffer) }
            }
            guard b >= 0x20 else { throw fail("control character in a string") }
            if b != UInt8(ascii: "\\") {
                // A run of plain bytes at once: a document's text has an escape per line.
                let run = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                continue
            }
            guard i + 1 < bytes.count else { throw fail("unterminated string") }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    scalar = (0xDC00..<0xE000).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: String(Character(value)).utf8)
            default: throw fail("invalid escape in a string")
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count, let value = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + 4)]), as: UTF8.self), radix: 16)
        else { throw fail("invalid \\u escape") }
        i += 4
        return value
    }

    private func validated(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
        return text
    }
}
