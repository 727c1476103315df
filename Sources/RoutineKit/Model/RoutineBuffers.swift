/// A routine's arrays as buffers, for loops that read them hundreds of thousands of times:
/// passing a ``Routine`` to a function retains and releases each of its arrays per call, and
/// a buffer costs nothing to pass. Valid only inside ``Routine/withBuffers(_:)``.
struct RoutineBuffers {
    let records: UnsafeBufferPointer<NodeRecord>
    let options: UnsafeBufferPointer<OptionRecord>
    let edges: UnsafeBufferPointer<Edge>
    let source: UnsafeBufferPointer<UInt8>
    let own: UnsafeBufferPointer<UInt8>

    /// The bytes of `ref`; empty for ``TextRef/none``.
    @inline(__always) func bytes(_ ref: TextRef) -> UnsafeBufferPointer<UInt8> {
        if ref.isNone { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = Int(ref.start & ~TextRef.ownFlag)
        let storage = ref.start & TextRef.ownFlag != 0 ? own : source
        return UnsafeBufferPointer(rebasing: storage[start..<(start + Int(ref.count))])
    }

    /// The edges of `range`.
    @inline(__always) func edges(_ range: EdgeRange) -> UnsafeBufferPointer<Edge> {
        UnsafeBufferPointer(rebasing: edges[range.range])
    }
}

extension Routine {
    /// Calls `body` with the routine's arrays as buffers.
    func withBuffers<R>(_ body: (RoutineBuffers) throws -> R) rethrows -> R {
        try records.withUnsafeBufferPointer { records in
            try optionRecords.withUnsafeBufferPointer { options in
                try edges.withUnsafeBufferPointer { edges in
                    try text.source.withUnsafeBufferPointer { source in
                        try text.own.withUnsafeBufferPointer { own in
                            try body(RoutineBuffers(records: records, options: options, edges: edges, source: source, own: own))
                        }
                    }
                }
            }
        }
    }
}
