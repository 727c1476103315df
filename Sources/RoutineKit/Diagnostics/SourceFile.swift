/// The bytes of one input, with the name diagnostics show for it.
public struct SourceFile: Sendable {
    /// The largest input accepted, 256 MiB: spans are 32-bit, a generated routine of a million
    /// nodes is about 90 MB, and an endless input (`/dev/zero`) is refused before it costs more.
    public static let maximumSize = 1 << 28

    /// The name shown in diagnostics: the path as given, or `<stdin>`.
    public let name: String
    public let bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The format implied by the file's extension, if it names one.
    public var formatFromExtension: SourceFormat? {
        let lower = name.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
        if lower.hasSuffix(".rt") { return .rt }
        return nil
    }
}

/// The two ways a routine can be written.
public enum SourceFormat: String, Sendable, CaseIterable {
    case rt, yaml
}

/// Maps byte offsets to 1-based lines and columns; built only when diagnostics are rendered.
public struct LineTable: Sendable {
    /// Byte offset at which each line starts. LF, CRLF and a lone CR all end a line.
    public let lineStarts: [Int]
    private let bytes: [UInt8]
    /// The last place ``locate(_:)`` found: diagnostics come in source order, so the next one
    /// on the same line is counted on from here, and a line of 100,000 diagnostics costs one
    /// pass, not one per diagnostic.
    private var cursor = (offset: 0, line: 0, column: 1)

    public init(_ file: SourceFile) {
        bytes = file.bytes
        var starts = [0]
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A {
                starts.append(i + 1)
            } else if b == 0x0D {
                if i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    private init(bytes: [UInt8], lineStarts: [Int]) {
        self.bytes = bytes
        self.lineStarts = lineStarts
    }

    /// The table of `edited`: this table's text with the bytes in `replaced` changed to the
    /// `insertedCount` bytes at `replaced.lowerBound` of `edited`. Lines before the change are
    /// kept and those after it shifted; only the inserted bytes are read, so an editor's
    /// keystroke in a long file costs the lines, not the bytes.
    public func replacing(_ replaced: Range<Int>, insertedCount: Int, giving edited: [UInt8]) -> LineTable {
        let delta = insertedCount - replaced.count
        let insertedEnd = replaced.lowerBound + insertedCount
        // Whether a line starts at `p` depends on the bytes at `p - 1` and `p` only, so the
        // starts below the change and those more than a byte past it stand.
        let kept = replaced.lowerBound == 0 ? 1 : lineIndex(of: replaced.lowerBound - 1) + 1
        let shifted = lineIndex(of: replaced.upperBound) + 1
        var starts = Array(lineStarts[0..<kept])
        starts.reserveCapacity(kept + lineStarts.count - shifted + 16)
        var p = max(replaced.lowerBound, 1)
        while p <= insertedEnd {
            let previous = edited[p - 1]
            if previous == 0x0A || (previous == 0x0D && (p == edited.count || edited[p] != 0x0A)) { starts.append(p) }
            p += 1
        }
        for k in shifted..<lineStarts.count { starts.append(lineStarts[k] + delta) }
        return LineTable(bytes: edited, lineStarts: starts)
    }

    /// The 0-based index of the line holding `offset`.
    public func lineIndex(of offset: Int) -> Int {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The bytes of line `index`, without its line end.
    public func lineBytes(_ index: Int) -> ArraySlice<UInt8> {
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }

    /// As ``location(of:)``, counting on from the previous answer when `offset` lies after it
    /// on the same line.
    public mutating func locate(_ offset: Int) -> (line: Int, column: Int) {
        let clamped = min(max(0, offset), bytes.count)
        let index = lineIndex(of: clamped)
        let from: (offset: Int, column: Int) =
            index == cursor.line && clamped >= cursor.offset ? (cursor.offset, cursor.column) : (lineStarts[index], 1)
        let column = from.column + String(decoding: bytes[from.offset..<clamped], as: UTF8.self).count
        cursor = (clamped, index, column)
        return (index + 1, column)
    }

    /// 1-based line and column of `offset`; the column counts characters as an editor shows them.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        let clamped = min(max(0, offset), bytes.count)
        let index = lineIndex(of: clamped)
        let start = lineStarts[index]
        let prefix = String(decoding: bytes[start..<clamped], as: UTF8.self)
        return (index + 1, prefix.count + 1)
    }
}
