import RoutineKit

/// How the client counts characters in a line (LSP `PositionEncodingKind`).
public enum PositionEncoding: String, Sendable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
}

/// An LSP position: a 0-based line and a character offset in the negotiated encoding.
public struct Position: Sendable, Equatable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    var json: JSON { ["line": JSON(line), "character": JSON(character)] }
}

/// Converts between UTF-8 byte offsets, which the routine library speaks, and LSP positions.
/// Built once per version of a document from the same line table the diagnostics use.
struct PositionMap: Sendable {
    let bytes: [UInt8]
    private let table: LineTable
    let encoding: PositionEncoding

    init(_ file: SourceFile, encoding: PositionEncoding) {
        self.init(bytes: file.bytes, table: LineTable(file), encoding: encoding)
    }

    private init(bytes: [UInt8], table: LineTable, encoding: PositionEncoding) {
        self.bytes = bytes
        self.table = table
        self.encoding = encoding
    }

    /// The map of `edited`, which is this map's text with `span` replaced by `insertedCount`
    /// bytes: an incremental change costs the lines, not a scan of the whole text.
    func replacing(_ span: Span, insertedCount: Int, giving edited: [UInt8]) -> PositionMap {
        PositionMap(
            bytes: edited, table: table.replacing(span.lowerBound..<span.upperBound, insertedCount: insertedCount, giving: edited),
            encoding: encoding)
    }

    var lineStarts: [Int] { table.lineStarts }

    var lineCount: Int { lineStarts.count }

    /// Where line `index`'s text ends, before its line break.
    func lineEnd(_ index: Int) -> Int {
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
        while end > lineStarts[index], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    func position(_ offset: Int) -> Position {
        let offset = min(max(0, offset), bytes.count)
        let line = table.lineIndex(of: offset)
        let start = lineStarts[line]
        if encoding == .utf8 { return Position(line: line, character: offset - start) }
        var units = 0
        var i = start
        while i < offset {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            units += length == 4 ? 2 : 1
            i += length
        }
        return Position(line: line, character: units)
    }

    func range(_ span: Span) -> JSON {
        ["start": position(span.lowerBound).json, "end": position(span.upperBound).json]
    }

    /// What ``range(_:)`` serializes to, written directly.
    func write(range span: Span, into out: inout ByteWriter) {
        let start = position(span.lowerBound)
        let end = position(span.upperBound)
        out.write("{\"end\":{\"character\":")
        out.write(end.character)
        out.write(",\"line\":")
        out.write(end.line)
        out.write("},\"start\":{\"character\":")
        out.write(start.character)
        out.write(",\"line\":")
        out.write(start.line)
        out.write("}}")
    }

    /// The byte offset of `position`; a character past the line's end means the end (as LSP
    /// asks), a line past the document's last is refused.
    func offset(_ position: Position) throws(ResponseError) -> Int {
        guard position.line < lineStarts.count else {
            throw .invalidParams("line \(position.line) is past the end of the document, which has \(lineStarts.count) lines")
        }
        let start = lineStarts[position.line]
        let end = lineEnd(position.line)
        if encoding == .utf8 { return min(start + position.character, end) }
        var units = 0
        var i = start
        while i < end, units < position.character {
            let b = bytes[i]
            let length = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            units += length == 4 ? 2 : 1
            i = min(i + length, end)
        }
        return i
    }

    func span(_ range: JSON?) throws(ResponseError) -> Span {
        guard let start = Position(range?["start"]), let end = Position(range?["end"]) else {
            throw .invalidParams("a range needs a start and an end position")
        }
        return Span(start: try offset(start), end: try offset(end))
    }
}
