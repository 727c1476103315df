/// Seconds measured on the records of a run, in order: nil where nothing was measured.
///
/// Only the records up to the last measured one are stored, eight bytes each (NaN for nil),
/// so a scripted run, which measures nothing, keeps no more than a count, and a person's run
/// keeps a word a record. Appending and reading a record are constant time.
public struct StepTimes: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    /// The records up to the last measured one; the records after it measured nothing.
    private var stored: [Double] = []
    /// The number of records.
    public private(set) var endIndex = 0

    /// The first record's index: records are numbered from 0, as a run's records are.
    public var startIndex: Int { 0 }

    /// No records.
    public init() {}

    /// The records of `seconds`, in order.
    public init(_ seconds: some Sequence<Double?>) {
        for value in seconds { append(value) }
    }

    /// The records listed, in order.
    public init(arrayLiteral seconds: Double?...) { self.init(seconds) }

    /// The seconds of the record at `index`; NaN reads as not measured.
    public subscript(index: Int) -> Double? {
        precondition(index >= 0 && index < endIndex, "record index out of range")
        guard index < stored.count, !stored[index].isNaN else { return nil }
        return stored[index]
    }

    /// Adds the next record's seconds, nil when it measured nothing.
    public mutating func append(_ seconds: Double?) {
        if let seconds, !seconds.isNaN {
            stored.append(contentsOf: repeatElement(.nan, count: endIndex - stored.count))
            stored.append(seconds)
        }
        endIndex += 1
    }

    /// Forgets the last `k` records.
    public mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= endIndex, "cannot remove more records than there are")
        endIndex -= k
        if stored.count > endIndex { stored.removeLast(stored.count - endIndex) }
        // The stored prefix ends at a measured record, so nothing is kept for the rest.
        while stored.last?.isNaN == true { stored.removeLast() }
    }

    /// How many records are stored: the measured prefix (for tests of memory).
    var storedCount: Int { stored.count }

    /// Equal when the records read the same, however they are stored.
    public static func == (a: StepTimes, b: StepTimes) -> Bool { a.elementsEqual(b) }
}
