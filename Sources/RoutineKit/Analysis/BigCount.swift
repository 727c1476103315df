/// A path count, exact up to 2^256: a chain of 70 yes/no questions already has more ways
/// through it than a 64-bit integer holds. Past 2^256 (about 1.2e77) a count saturates and
/// prints as "more than 2^256": exact digits of that size tell nobody anything, and keeping
/// them for every explored agenda would cost memory that grows with the routine.
public struct BigCount: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// At most four little-endian 64-bit limbs, no trailing zero limbs.
    private var limbs: [UInt64]
    /// Set once the count has passed 2^256.
    public private(set) var isSaturated = false

    static let maximumLimbs = 4

    public init(_ value: UInt64 = 0) { limbs = value == 0 ? [] : [value] }

    public static func + (a: BigCount, b: BigCount) -> BigCount {
        if a.isSaturated || b.isSaturated {
            var saturated = BigCount()
            saturated.isSaturated = true
            return saturated
        }
        var result = BigCount()
        var carry: UInt64 = 0
        for i in 0..<max(a.limbs.count, b.limbs.count) {
            let x = i < a.limbs.count ? a.limbs[i] : 0
            let y = i < b.limbs.count ? b.limbs[i] : 0
            let (s1, o1) = x.addingReportingOverflow(y)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            result.limbs.append(s2)
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        if carry > 0 { result.limbs.append(carry) }
        if result.limbs.count > maximumLimbs {
            result.limbs = []
            result.isSaturated = true
        }
        return result
    }

    public static func * (a: BigCount, b: BigCount) -> BigCount {
        if a.limbs.isEmpty && !a.isSaturated || b.limbs.isEmpty && !b.isSaturated { return BigCount() }
        var product = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count)
        if !a.isSaturated && !b.isSaturated {
            for (i, x) in a.limbs.enumerated() {
                var carry: UInt64 = 0
                for (j, y) in b.limbs.enumerated() {
                    let (high, low) = x.multipliedFullWidth(by: y)
                    let (s1, o1) = product[i + j].addingReportingOverflow(low)
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    product[i + j] = s2
                    carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                }
                product[i + b.limbs.count] = carry
            }
            while product.last == 0 { product.removeLast() }
            if product.count <= maximumLimbs {
                var result = BigCount()
                result.limbs = product
                return result
            }
        }
        var saturated = BigCount()
        saturated.isSaturated = true
        return saturated
    }

    public static func < (a: BigCount, b: BigCount) -> Bool {
        if a.isSaturated || b.isSaturated { return !a.isSaturated && b.isSaturated }
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i]
        }
        return false
    }

    /// The value if it fits in 64 bits.
    public var uint64: UInt64? { !isSaturated && limbs.count <= 1 ? (limbs.first ?? 0) : nil }

    /// Decimal digits, by repeated division by 10^18.
    public var description: String {
        if isSaturated { return "more than 2^256" }
        guard !limbs.isEmpty else { return "0" }
        var rest = limbs
        var chunks: [UInt64] = []
        let base: UInt64 = 1_000_000_000_000_000_000
        while !rest.isEmpty {
            var remainder: UInt64 = 0
            for i in stride(from: rest.count - 1, through: 0, by: -1) {
                let (q, r) = base.dividingFullWidth((remainder, rest[i]))
                rest[i] = q
                remainder = r
            }
            while rest.last == 0 { rest.removeLast() }
            chunks.append(remainder)
        }
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 18 - digits.count) + digits
        }
        return text
    }
}
