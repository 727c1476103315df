/// Diagnostics as a reader or the validator finds them, with a bound on each code: past
/// ``limitPerCode`` of one code, further ones are only counted. A 16 MB file of one repeated
/// mistake then costs a bounded list and a count, not millions of diagnostics in memory;
/// ``finished()`` turns each count into one closing diagnostic ("and 5,299,990 more W004").
public struct DiagnosticList: RandomAccessCollection, Sendable {
    public static let limitPerCode = 10_000

    public private(set) var kept: [Diagnostic] = []
    /// How many of each code were counted and not kept.
    public private(set) var omitted: [DiagnosticCode: Int] = [:]
    private var counts: [DiagnosticCode: Int] = [:]

    public init() {}

    public init(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    public var startIndex: Int { kept.startIndex }
    public var endIndex: Int { kept.endIndex }
    public subscript(position: Int) -> Diagnostic { kept[position] }

    public mutating func append(_ diagnostic: Diagnostic) {
        let count = counts[diagnostic.code, default: 0]
        counts[diagnostic.code] = count + 1
        if count < Self.limitPerCode {
            kept.append(diagnostic)
        } else {
            omitted[diagnostic.code, default: 0] += 1
        }
    }

    public mutating func append(contentsOf other: some Sequence<Diagnostic>) {
        for diagnostic in other { append(diagnostic) }
    }

    public mutating func append(contentsOf other: DiagnosticList) {
        for diagnostic in other.kept { append(diagnostic) }
        for (code, count) in other.omitted {
            counts[code, default: 0] += count
            omitted[code, default: 0] += count
        }
    }

    public static func + (left: DiagnosticList, right: DiagnosticList) -> DiagnosticList {
        var result = left
        result.append(contentsOf: right)
        return result
    }

    public static func += (left: inout DiagnosticList, right: DiagnosticList) {
        left.append(contentsOf: right)
    }

    public var hasErrors: Bool { kept.hasErrors }

    public mutating func removeAll(where shouldRemove: (Diagnostic) -> Bool) {
        kept.removeAll(where: shouldRemove)
    }

    public mutating func removeAll() {
        kept.removeAll()
        omitted.removeAll()
        counts.removeAll()
    }

    public var last: Diagnostic? { kept.last }

    /// The kept diagnostics sorted by position, then one diagnostic per code that was cut
    /// short, saying how many more there were.
    public func finished() -> [Diagnostic] {
        var result = kept.sortedByPosition()
        for (code, count) in omitted.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            result.append(.omitted(count, of: code))
        }
        return result
    }
}
