/// A half-open range of UTF-8 byte offsets into one source file.
///
/// Offsets are 32-bit because the reader refuses files over ``SourceFile/maximumSize``;
/// it halves the memory of the spans a million-node routine keeps.
public struct Span: Hashable, Sendable {
    public var start: UInt32
    public var end: UInt32

    public init(start: Int, end: Int) {
        self.start = UInt32(truncatingIfNeeded: start)
        self.end = UInt32(truncatingIfNeeded: max(start, end))
    }

    /// An empty span at `offset`.
    public init(at offset: Int) { self.init(start: offset, end: offset) }

    public var lowerBound: Int { Int(start) }
    public var upperBound: Int { Int(end) }
    public var isEmpty: Bool { start == end }

    /// The smallest span covering both.
    public func union(_ other: Span) -> Span {
        Span(start: min(lowerBound, other.lowerBound), end: max(upperBound, other.upperBound))
    }
}
