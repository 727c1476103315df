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
