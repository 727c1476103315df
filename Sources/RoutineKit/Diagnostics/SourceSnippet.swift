/// The source lines a diagnostic shows, made safe and measured for a terminal: tabs
/// expanded, control characters replaced, wide characters counted as two columns, and very
/// long lines cut to a window around the span.
struct SourceSnippet {
    struct Mark {
        var column: Int
        var width: Int
        var message: String
        var primary: Bool
    }

    struct Row {
        var line: Int
        var text: String
        var marks: [Mark]
    }

    static let maximumWidth = 160

    private(set) var rows: [Row] = []

    init(table: LineTable, labels: [(Span, String, Bool)]) {
        var byLine: [Int: [(Span, String, Bool)]] = [:]
        for label in labels { byLine[table.lineIndex(of: label.0.lowerBound), default: []].append(label) }
        for index in byLine.keys.sorted() {
            let lineStart = table.lineStarts[index]
            let bytes = table.lineBytes(index)
            let labelsHere = byLine[index]!
            let first = labelsHere.map { $0.0.lowerBound - lineStart }.min()!
            let (text, columnOf) = Self.display(bytes, around: first)
            var marks: [Mark] = []
            for (span, message, primary) in labelsHere {
                let start = columnOf(span.lowerBound - lineStart)
                let end = columnOf(min(span.upperBound, lineStart + bytes.count) - lineStart)
                marks.append(Mark(column: start, width: max(1, end - start), message: message, primary: primary))
            }
            marks.sort { $0.column < $1.column }
            rows.append(Row(line: index + 1, text: text, marks: marks))
        }
    }

    var gutterWidth: Int { max(2, String(rows.last?.line ?? 1).count) }

    /// The printable text of a line and a map from byte offsets in the line to display columns.
    private static func display(_ bytes: ArraySlice<UInt8>, around focus: Int) -> (String, (Int) -> Int) {
        let line = String(decoding: bytes, as: UTF8.self)
        var text = ""
        var columns: [(offset: Int, column: Int)] = []
        var offset = 0
        var column = 0
        let windowStart = max(0, focus - maximumWidth / 2)
        var skipped = false
        for character in line {
            let length = character.utf8.count
            defer { offset += length }
            if offset < windowStart {
                skipped = true
                continue
            }
            if column == 0, skipped {
                text += "..."
                column = 3
            }
            if column > maximumWidth {
                text += "..."
                break
            }
            columns.append((offset, column))
            let (shown, width) = printable(character, column: column)
            text += shown
            column += width
        }
        columns.append((offset, column))
        let map: (Int) -> Int = { byte in
            if byte <= windowStart { return columns.first?.column ?? 0 }
            var lo = 0
            var hi = columns.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if columns[mid].offset <= byte { lo = mid } else { hi = mid - 1 }
            }
            return columns[lo].column
        }
        return (text, map)
    }

    private static func printable(_ character: Character, column: Int) -> (String, Int) {
        guard let scalar = character.unicodeScalars.first else { return ("", 0) }
        if scalar == "\t" {
            let width = 4 - column % 4
            return (String(repeating: " ", count: width), width)
        }
        if Sanitizer.isUnsafe(scalar) {
            return ("\u{FFFD}", 1)
        }
        return (String(character), isWide(scalar) ? 2 : 1)
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if scalar.properties.isEmojiPresentation { return true }
        return (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
    }
}
