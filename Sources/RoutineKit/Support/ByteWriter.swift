/// An output buffer of UTF-8 bytes: the writers append to it directly, because building the
/// text of a million-node graph out of small Strings costs several times the work itself.
///
/// The buffer is raw memory rather than an `[UInt8]`, and the writer cannot be copied: a
/// graph is written in millions of appends of a few bytes, and an array's generic append, or
/// the uniqueness check a copyable buffer needs before each write, costs several times the copy.
public struct ByteWriter: ~Copyable, @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    public init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, as an array (a copy).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// How many bytes have been written since the start or the last ``removeAll()``.
    public var written: Int { count }

    /// Forgets the bytes written and keeps the buffer: a writer that hands its bytes on in
    /// pieces then writes over the same memory, where a growing buffer touches a new page
    /// every 4 KiB.
    public mutating func removeAll() { count = 0 }

    @inline(__always) public mutating func write(bytes more: UnsafeBufferPointer<UInt8>) {
        guard let source = more.baseAddress else { return }
        let n = more.count
        reserve(n)
        if n <= 16 {
            Self.copySmall(from: UnsafeRawPointer(source), to: UnsafeMutableRawPointer(base + count), n)
        } else {
            (base + count).update(from: source, count: n)
        }
        count += n
    }

    /// Copies `n` bytes, at most 16, in two overlapping loads and stores of the widest size
    /// that fits: the writers' pieces (IDs, numbers, punctuation) are mostly this short, and a
    /// loop over their bytes or a call to `memmove` costs more than the copy.
    @inline(__always) private static func copySmall(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, _ n: Int) {
        if n >= 8 {
            let low = source.loadUnaligned(as: UInt64.self)
            let high = source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            destination.storeBytes(of: low, as: UInt64.self)
            destination.storeBytes(of: high, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            let low = source.loadUnaligned(as: UInt32.self)
            let high = source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            destination.storeBytes(of: low, as: UInt32.self)
            destination.storeBytes(of: high, toByteOffset: n - 4, as: UInt32.self)
        } else if n > 0 {
            // The first, middle and last byte are every byte of one to three.
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: n >> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: n - 1, as: UInt8.self)
            destination.storeBytes(of: first, as: UInt8.self)
            destination.storeBytes(of: middle, toByteOffset: n >> 1, as: UInt8.self)
            destination.storeBytes(of: last, toByteOffset: n - 1, as: UInt8.self)
        }
    }

    /// Appends a literal; the writers' literals are their fixed syntax, written millions of times.
    @inline(__always) public mutating func write(_ text: StaticString) {
        if text.hasPointerRepresentation {
            write(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            text.withUTF8Buffer { write(bytes: $0) }
        }
    }

    public mutating func write(string text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    public mutating func write(_ number: Int) {
        if number < 0 { byte(UInt8(ascii: "-")) }
        var rest = number.magnitude
        // Digits come lowest first, so they fill a small buffer from its end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            write(bytes: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    @inline(__always) public mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
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

    /// Appends the longest prefix of `bytes` that `isPlain` accepts, eight bytes at a time while
    /// `isPlainWord` accepts a whole word, and returns how many bytes it took. Checking and
    /// copying in one pass reads each label once.
    @inline(__always) mutating func writePrefix(
        of bytes: UnsafeBufferPointer<UInt8>, isPlainWord: (UInt64) -> Bool, isPlain: (UInt8) -> Bool
    ) -> Int {
        guard let source = bytes.baseAddress else { return 0 }
        let n = bytes.count
        reserve(n)
        let destination = UnsafeMutableRawPointer(base + count)
        let raw = UnsafeRawPointer(source)
        var i = 0
        while i + 8 <= n {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard isPlainWord(UInt64(littleEndian: word)) else { break }
            destination.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        let rest = n - i
        if rest > 0 && rest < 8 {
            // The last one to seven bytes checked as one word: the bytes themselves (some twice),
            // and plain letters in the places three or fewer leave empty.
            let word = UnsafeBufferPointer<UInt8>.tail(source + i, rest) | (rest < 4 ? 0x4141_4141_4100_0000 : 0)
            if isPlainWord(word) {
                Self.copySmall(from: raw + i, to: destination + i, rest)
                i = n
            }
        }
        while i < n, isPlain(source[i]) {
            destination.storeBytes(of: source[i], toByteOffset: i, as: UInt8.self)
            i += 1
        }
        count += i
        return i
    }

    /// Room for `n` more bytes.
    @inline(__always) private mutating func reserve(_ n: Int) {
        if _slowPath(capacity - count < n) { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }
}
