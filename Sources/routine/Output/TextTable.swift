import RoutineKit
import RoutineTerminal

/// A table of text built as UTF-8 bytes: cells go into one buffer, and each is padded to its
/// column's width only when the whole table is known. Ten years of runs are 3,650 rows; a
/// string per cell and a string per line cost more than reading them from the history.
struct TextTable {
    private var bytes: [UInt8] = []
    /// Where each cell ends in `bytes`, and the terminal columns it takes (East Asian wide
    /// characters and emoji take two).
    private var ends: [Int] = []
    private var cellWidths: [Int] = []
    private var columnWidths: [Int]
    private var cellStart = 0

    init(columns: Int, rows: Int = 0) {
        columnWidths = Array(repeating: 0, count: columns)
        ends.reserveCapacity(columns * rows)
        cellWidths.reserveCapacity(columns * rows)
        bytes.reserveCapacity(columns * rows * 12)
    }

    var columnCount: Int { columnWidths.count }

    /// Text the program wrote itself.
    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Text from a routine or the history, made safe for a terminal: controls written visibly,
    /// a line break too, so that a row stays one line.
    mutating func append(visible text: String) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            bytes.append(contentsOf: text.utf8)
        } else {
            bytes.append(contentsOf: Sanitizer.visible(text).utf8)
        }
    }

    /// A whole number in decimal.
    mutating func append(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// A number from 0 to 99 as two digits.
    mutating func append(twoDigits number: Int) {
        bytes.append(UInt8(ascii: "0") + UInt8(number / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    /// Ends the cell being written; the row ends after `columnCount` cells.
    mutating func endCell() {
        let column = ends.count % columnWidths.count
        let cell = bytes[cellStart...]
        // Below U+0300 (ASCII, Latin-1, the "·" between a log's figures) every character takes
        // one column: counted from the bytes, without looking up Unicode properties.
        var width = 0
        var simple = true
        for byte in cell {
            if byte < 0x80 || (0xC2...0xCB).contains(byte) {
                width += 1
            } else if byte >= 0xC0 {
                simple = false
                break
            }
        }
        if !simple { width = LineEditor.width(String(decoding: cell, as: UTF8.self)) }
        ends.append(bytes.count)
        cellWidths.append(width)
        columnWidths[column] = max(columnWidths[column], width)
        cellStart = bytes.count
    }

    /// Each row as a line: cells two spaces apart, padded to their column, without the spaces
    /// a row would end in.
    func write(to out: inout BufferedOutput) {
        forEachLine { out.write(bytes: $0) }
    }

    /// The lines ``write(to:)`` writes, as one string.
    var text: String {
        var all: [UInt8] = []
        forEachLine { all.append(contentsOf: $0) }
        return String(decoding: all, as: UTF8.self)
    }

    private func forEachLine(_ body: ([UInt8]) -> Void) {
        var line: [UInt8] = []
        var start = 0
        for cell in ends.indices {
            let column = cell % columnWidths.count
            line.append(contentsOf: bytes[start..<ends[cell]])
            start = ends[cell]
            if column < columnWidths.count - 1 {
                line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: columnWidths[column] - cellWidths[cell] + 2))
            } else {
                while let last = line.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { line.removeLast() }
                line.append(0x0A)
                body(line)
                line.removeAll(keepingCapacity: true)
            }
        }
    }
}
