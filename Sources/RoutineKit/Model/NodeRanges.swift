/// The part of a routine's source each node owns: from the start of the line its
/// declaration begins on up to the next declaration (the last node's runs to the end of the
/// file), so that a problem anywhere in a node's lines, even in one the parser could not
/// read into the node, names that node. Used to tie a diagnostic to a card.
public struct NodeRanges: Sendable {
    /// Node indices in source order, with the offset each one's range starts at.
    private let starts: [(offset: Int, node: Int)]

    /// The ranges of `routine`'s nodes in `bytes`, the source it was read from (`.rt` or YAML).
    public init(_ routine: Routine, source bytes: [UInt8]) {
        var starts: [(offset: Int, node: Int)] = []
        starts.reserveCapacity(routine.nodeCount)
        for (index, record) in routine.records.enumerated() {
            // A YAML mapping may give its title before its ID: the earlier of the two begins it.
            var offset = min(min(record.idSpan.lowerBound, record.titleSpan.lowerBound), bytes.count)
            while offset > 0, bytes[offset - 1] != 0x0A, bytes[offset - 1] != 0x0D { offset -= 1 }
            starts.append((offset, index))
        }
        // Both readers store nodes in source order; sorting keeps the search right if one did not.
        if !starts.indices.dropFirst().allSatisfy({ starts[$0 - 1].offset <= starts[$0].offset }) {
            starts.sort { $0.offset < $1.offset }
        }
        self.starts = starts
    }

    /// The index of the node whose range holds `offset`; nil before the first declaration.
    public func node(at offset: Int) -> Int? {
        var low = 0
        var high = starts.count
        // The last start at or before `offset`.
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].offset <= offset { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : starts[low - 1].node
    }
}
