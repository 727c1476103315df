/// A JSON value as read: what ``JSONParser`` makes of a JSON text, and what the language
/// server's messages are made of.
///
/// Read by hand into this tree rather than through `Codable`: one pass over the bytes, no
/// Foundation, and a malformed text is told apart from a well-formed one with unexpected
/// members, which a protocol (JSON-RPC) answers with different errors. ``JSONValue`` is the
/// writer's kind: its objects keep their members in order.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
    /// JSON already written: the outline and semantic tokens of a long routine are written
    /// straight to bytes, since a tree of thousands of small objects costs ten times as much.
    case raw([UInt8])

    public subscript(key: String) -> JSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an integer, when it is a number without a fraction.
    public var int: Int? {
        if case .number(let value) = self, value == value.rounded(), abs(value) < 9e15 { return Int(value) }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }

    public init(_ value: Int) { self = .number(Double(value)) }
    public init(_ value: JSON) { self = value }
    public init(_ value: String?) { self = value.map { .string($0) } ?? .null }
}

extension JSON {
    /// The value as compact JSON, object keys sorted so that output is reproducible.
    public var serialized: [UInt8] {
        var out = ByteWriter(capacity: 256)
        write(to: &out)
        return out.bytes
    }

    public var text: String { String(decoding: serialized, as: UTF8.self) }

    // Recursive: the server serializes only values it built, a few levels deep; parsed
    // values (as deep as ``JSONParser/maximumDepth``) are never sent back.
    private func write(to out: inout ByteWriter) {
        switch self {
        case .null: out.write("null")
        case .bool(let b): out.write(b ? "true" : "false")
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 {
                out.write(Int(n))
            } else {
                out.write(string: n.isFinite ? String(n) : "null")
            }
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let values): out.writeJSONArray(values) { $0.write(to: &$1) }
        case .object(let fields):
            out.writeJSONObject(fields.sorted(by: { $0.key < $1.key }).lazy.map { ($0.key, $0.value) }) { $0.write(to: &$1) }
        case .raw(let bytes): bytes.withUnsafeBufferPointer { out.write(bytes: $0) }
        }
    }
}
