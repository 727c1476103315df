/// The source a routine was parsed from, so that printing it keeps its comments and the
/// author's grouping of declarations.
public struct SourceLayout: Sendable {
    public var file: SourceFile
    public var comments: [Span]

    public init(file: SourceFile, comments: [Span]) {
        self.file = file
        self.comments = comments
    }
}

/// Prints a routine as canonical `.rt` text: one declaration header per line, attributes in a
/// fixed order (for, target, on; a note on its own line), options indented two spaces with
/// their arrows aligned, one blank line between declarations, or as the author grouped them.
public enum RoutinePrinter {
    struct Line {
        var text: String
        /// The source offset of what this line prints, for placing comments.
        var anchor: Int?
        var topLevel: Bool
        var indent = ""
        var leading: [Span] = []
        /// At most one: a second comment on one printed line would read back as part of the first.
        var trailing: Span?
    }

    public static func print(_ routine: Routine, layout: SourceLayout? = nil) -> String {
        var lines = makeLines(routine)
        var table: LineTable?
        if let layout {
            table = LineTable(layout.file)
            attach(layout, table: table!, to: &lines)
        }
        // Entries are (code, trailing comment); nil marks a blank line.
        var entries: [(code: String, comment: String?)?] = []
        var previous: Int?
        func emit(_ code: String, comment: String? = nil, at source: Int?, topLevel: Bool) {
            let blank: Bool
            if let table, let layout {
                blank =
                    topLevel && !entries.isEmpty && previous != nil && source != nil
                    && hasBlankLine(table, layout.file.bytes, from: previous!, to: source!)
            } else {
                blank = topLevel && !entries.isEmpty
            }
            if blank { entries.append(nil) }
            entries.append((code, comment))
            if let source { previous = source }
        }
        for line in lines {
            for comment in line.leading {
                emit(line.indent + text(comment, layout), at: comment.lowerBound, topLevel: line.topLevel && layout != nil)
            }
            if line.text.isEmpty { continue }
            let comment = line.trailing.map { Self.text($0, layout) }
            emit(line.indent + line.text, comment: comment, at: line.anchor, topLevel: line.topLevel && (layout != nil || line.leading.isEmpty))
        }
        return render(entries)
    }

    /// Joins the entries, aligning the trailing comments of consecutive lines in one column.
    private static func render(_ entries: [(code: String, comment: String?)?]) -> String {
        var out = ""
        var k = 0
        while k < entries.count {
            guard let entry = entries[k] else {
                out += "\n"
                k += 1
                continue
            }
            guard entry.comment != nil else {
                out += entry.code + "\n"
                k += 1
                continue
            }
            var end = k
            while end < entries.count, let next = entries[end], next.comment != nil { end += 1 }
            let column = entries[k..<end].map { $0!.code.count }.max()! + 2
            for item in entries[k..<end] {
                out += item!.code + String(repeating: " ", count: column - item!.code.count) + item!.comment! + "\n"
            }
            k = end
        }
        return out
    }

    private static func text(_ comment: Span, _ layout: SourceLayout?) -> String {
        guard let bytes = layout?.file.bytes else { return "" }
        var end = comment.upperBound
        while end > comment.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[comment.lowerBound..<end], as: UTF8.self)
    }

    private static func makeLines(_ routine: Routine) -> [Line] {
        func arrow(_ edges: [Edge]) -> String { "-> " + edges.map { routine.name(of: $0.target) }.joined(separator: ", ") }
        var lines = [Line(text: "routine " + StringLiteral.encode(routine.name), anchor: routine.nameSpan.lowerBound, topLevel: true)]
        if let start = routine.startSpan {
            lines.append(Line(text: "start " + arrow(routine.explicitStart), anchor: start.lowerBound, topLevel: true))
        }
        for node in routine.nodes {
            var header = "\(node.kind.rawValue) \(node.id) " + StringLiteral.encode(node.title)
            if let seconds = node.duration { header += " for " + DurationText.format(seconds) }
            if let target = node.target {
                header += " target " + target.boundText
                if let unit = target.unit { header += " " + (isIdentifier(unit) ? unit : StringLiteral.encode(unit)) }
            }
            if let days = node.days { header += " on " + days.words.joined(separator: " ") }
            if let perWeek = node.perWeek { header += " \(perWeek) per week" }
            let arrowInline = node.isHabit && node.note == nil && !node.next.isEmpty
            if arrowInline { header += " " + arrow(node.next) }
            lines.append(Line(text: header, anchor: node.idSpan.lowerBound, topLevel: true))
            if let note = node.note {
                lines.append(Line(text: "note " + StringLiteral.encode(note), anchor: node.noteSpan?.lowerBound, topLevel: false, indent: "  "))
            }
            let literals = node.options.map { StringLiteral.encode($0.text) }
            let width = zip(node.options, literals).filter { !$0.0.next.isEmpty }.map { $0.1.count }.max() ?? 0
            for (option, literal) in zip(node.options, literals) {
                var text = literal
                if !option.next.isEmpty { text += String(repeating: " ", count: width - literal.count + 1) + arrow(option.next) }
                lines.append(Line(text: text, anchor: option.textSpan.lowerBound, topLevel: false, indent: "  "))
            }
            if !arrowInline, !node.next.isEmpty {
                // A question's own arrow is its gather, and says so.
                let text = (node.isQuestion ? "then " : "") + arrow(node.next)
                lines.append(Line(text: text, anchor: node.arrowSpan?.lowerBound, topLevel: false, indent: "  "))
            }
        }
        return lines
    }

    /// Own-line comments go before the construct that follows them in the source; a comment
    /// after code goes at the end of the line printing that code (or the nearest before it).
    /// When one printed line joins several source lines that each end in a comment, the first
    /// stays at its end and the others go before the next construct, as own-line comments:
    /// exactly where printing the result again puts them.
    private static func attach(_ layout: SourceLayout, table: LineTable, to lines: inout [Line]) {
        let anchored = lines.indices.filter { lines[$0].anchor != nil }.sorted { lines[$0].anchor! < lines[$1].anchor! }
        let anchors = anchored.map { lines[$0].anchor! }
        var orphans: [Span] = []
        for comment in layout.comments {
            let line = table.lineIndex(of: comment.lowerBound)
            let lineStart = table.lineStarts[line]
            let trailing = layout.file.bytes[lineStart..<comment.lowerBound].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0C }
            // The index of the first anchor after the comment.
            var lo = 0
            var hi = anchors.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if anchors[mid] <= comment.lowerBound { lo = mid + 1 } else { hi = mid }
            }
            if trailing, lo > 0, lines[anchored[lo - 1]].trailing == nil {
                lines[anchored[lo - 1]].trailing = comment
            } else if lo < anchors.count, !trailing || lo > 0 {
                lines[anchored[lo]].leading.append(comment)
            } else {
                orphans.append(comment)
            }
        }
        if !orphans.isEmpty {
            // Comments after the last declaration: a line of their own at the end.
            var last = Line(text: "", anchor: nil, topLevel: true)
            last.leading = orphans
            lines.append(last)
        }
    }

    private static func hasBlankLine(_ table: LineTable, _ bytes: [UInt8], from: Int, to: Int) -> Bool {
        let first = table.lineIndex(of: from) + 1
        let last = table.lineIndex(of: to)
        guard first < last else { return false }
        for index in first..<last where table.lineBytes(index).allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0C }) {
            return true
        }
        return false
    }
}
