extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the two buffers hold the same bytes, compared eight at a time: names and
    /// answers are compared by the hundred thousand, and a generic comparison goes byte by byte.
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let a = baseAddress, let b = other.baseAddress else { return true }
        var k = 0
        while k + 8 <= count {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) {
                return false
            }
            k += 8
        }
        return k == count || Self.tail(a + k, count - k) == Self.tail(b + k, count - k)
    }

    /// The 1 to 7 bytes at `p` as one integer, in a few loads rather than a loop: two
    /// overlapping 4-byte loads, or the first, middle and last byte. Together with `n`, the
    /// value determines every byte.
    @inline(__always) static func tail(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        let raw = UnsafeRawPointer(p)
        if n >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
            return low | high &<< 32
        }
        return UInt64(p[0]) | UInt64(p[n >> 1]) &<< 8 | UInt64(p[n - 1]) &<< 16
    }
}
