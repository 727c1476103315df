/// An output buffer of UTF-8 bytes: the writers append to it directly, because building the
/// text of a million-node graph out of small Strings costs several times the work itself.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func write(_ number: Int) {
        if number < 0 {
            bytes.append(UInt8(ascii: "-"))
            write(-number)
            return
        }
        if number >= 10 { write(number / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    public mutating func write(bytes more: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: more) }

    /// Appends `text` escaped scalar by scalar: `escape` returns the replacement for a scalar,
    /// or nil to keep it. Scalars below 0x80 that need no escape take a fast path.
    public mutating func write(_ text: String, escaping escape: (Unicode.Scalar) -> StaticString?) {
        for scalar in text.unicodeScalars {
            if let replacement = escape(scalar) {
                write(replacement)
            } else if scalar.value < 0x80 {
                bytes.append(UInt8(scalar.value))
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
