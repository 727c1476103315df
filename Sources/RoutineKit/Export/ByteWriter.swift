/// An output buffer of UTF-8 bytes: the writers append to it directly, because building the
/// text of a million-node graph out of small Strings costs several times the work itself.
///
/// The buffer is raw memory rather than an `[UInt8]`: a graph is written in millions of
/// appends of a few bytes, and an array's generic append costs several times the copy.
public struct ByteWriter: @unchecked Sendable {
    /// Owns the memory; the writer's own fields say how much of it is used.
    private final class Allocation {
        let base: UnsafeMutablePointer<UInt8>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }

    private var allocation: Allocation
    private var count = 0
    private var capacity: Int

    public init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        allocation = Allocation(capacity: self.capacity)
    }

    /// The bytes written so far, as an array (a copy).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: allocation.base, count: count))
    }

    @inline(__always) public mutating func write(bytes more: UnsafeBufferPointer<UInt8>) {
        guard let source = more.baseAddress else { return }
        let n = more.count
        reserve(n)
        let destination = allocation.base + count
        if n <= 16 {
            for k in 0..<n { destination[k] = source[k] }
        } else {
            destination.update(from: source, count: n)
        }
        count += n
    }

    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(bytes: $0) }
    }

    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    public mutating func write(_ number: Int) {
        if number < 0 {
            byte(UInt8(ascii: "-"))
            write(-number)
            return
        }
        if number >= 10 { write(number / 10) }
        byte(UInt8(ascii: "0") + UInt8(number % 10))
    }

    @inline(__always) public mutating func byte(_ b: UInt8) {
        reserve(1)
        allocation.base[count] = b
        count += 1
    }

    /// Appends `text` escaped scalar by scalar: `escape` returns the replacement for a scalar,
    /// or nil to keep it. Scalars below 0x80 that need no escape take a fast path.
    public mutating func write(_ text: String, escaping escape: (Unicode.Scalar) -> StaticString?) {
        for scalar in text.unicodeScalars {
            if let replacement = escape(scalar) {
                write(replacement)
            } else if scalar.value < 0x80 {
                byte(UInt8(scalar.value))
            } else {
                for b in UTF8.encode(scalar)! { byte(b) }
            }
        }
    }

    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Room for `n` more bytes, in memory this writer alone uses (a copy of a writer gets its own).
    @inline(__always) private mutating func reserve(_ n: Int) {
        if _slowPath(capacity - count < n || !isKnownUniquelyReferenced(&allocation)) { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = capacity - count < n ? max(capacity * 2, count + n) : capacity
        let fresh = Allocation(capacity: newCapacity)
        fresh.base.initialize(from: allocation.base, count: count)
        allocation = fresh
        capacity = newCapacity
    }
}
