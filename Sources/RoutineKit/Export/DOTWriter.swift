/// Writes a routine as a Graphviz `digraph`. Every ID and label is a quoted, escaped string,
/// so no routine, whatever its strings, produces DOT that Graphviz rejects. Output depends
/// only on the routine, so it diffs well.
public enum DOTWriter {
    // The cases are Graphviz's own `rankdir` words, as `--direction` takes them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    public enum Direction: String, Sendable, CaseIterable { case TB, LR }

    public static func write(_ view: GraphView, direction: Direction = .TB) -> String {
        writeBytes(view, direction: direction).text
    }

    public static func writeBytes(_ view: GraphView, direction: Direction = .TB) -> ByteWriter {
        // About 180 bytes a node in practice; room never written costs address space only,
        // and a buffer that grows copies everything written so far.
        var out = ByteWriter(capacity: view.routine.nodeCount * 256 + 4096)
        write(view, direction: direction, into: &out) { _ in }
        return out
    }

    /// Writes the DOT of `view` in pieces of about `piece` bytes, each handed to `body` as soon
    /// as it is full, and the rest at the end: the same bytes as ``writeBytes(_:direction:)``.
    /// A large routine's DOT is two to three times its source, and a buffer that holds it whole
    /// costs a page fault for every 4 KiB written; a piece is written over again.
    public static func write(
        _ view: GraphView, direction: Direction = .TB, inPiecesOf piece: Int = 1 << 18, to body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var out = ByteWriter(capacity: piece + 4096)
        write(view, direction: direction, into: &out) { out in
            guard out.written >= piece else { return }
            out.withBytes(body)
            out.removeAll()
        }
        out.withBytes(body)
    }

    /// Writes the DOT into `out`, calling `spill` after each statement or few: it may hand
    /// on what `out` holds and empty it.
    private static func write(
        _ view: GraphView, direction: Direction, into out: inout ByteWriter, spill: (inout ByteWriter) -> Void
    ) {
        let routine = view.routine
        out.write("digraph ")
        quote(routine.name, into: &out)
        out.write(" {\n  graph [rankdir=")
        out.write(string: direction.rawValue)
        out.write(", label=")
        quote(routine.name, into: &out)
        out.write(", labelloc=t, fontname=\"Helvetica\", fontsize=16")
        let xlabels = routine.withBuffers { labelledArrowCount($0) } > labelledArrowLimit
        if routine.nodeCount >= largeRoutine { out.write(", nslimit=0.2, mclimit=0.3") }
        if let comment = view.comment {
            out.write(", comment=")
            quote(comment, into: &out)
        }
        out.write("];\n")
        out.write("  node [fontname=\"Helvetica\", fontsize=11];\n")
        out.write("  edge [fontname=\"Helvetica\", fontsize=10];\n")
        out.write("  \" start\" [shape=circle, style=filled, fillcolor=black, label=\"\", width=0.2];\n")
        routine.withBuffers { buffers in writeNodes(view, buffers, into: &out, spill: spill) }
        if view.usesEnd {
            out.write("  \" end\" [shape=doublecircle, label=\"end\", width=0.3, fontsize=10];\n")
        }
        if view.showProblems {
            for name in routine.missingNames {
                out.write("  ")
                quote(missingID(name), into: &out)
                out.write(" [shape=box, style=dashed, color=red, fontcolor=red, label=")
                quote(name + "\n(missing)", into: &out)
                out.write("];\n")
            }
        }
        let gathers = GatherTails(routine)
        routine.withBuffers { buffers in
            let far = farArrows(view, buffers, gathers: gathers)
            writeArrows(view, buffers, xlabels: xlabels, far: far, gathers: gathers, into: &out, spill: spill)
        }
        if let history = view.history { writeLegend(history, into: &out) }
        out.write("}\n")
    }

    /// How many labelled arrows `dot` still lays out quickly as labels. `dot` makes each arrow
    /// label a node of its own, on a rank of its own, and its layout time grows far faster than
    /// the arrows: 4 s for 180 labelled arrows, a minute for 400 (BENCHMARKS.md, "Pictures of
    /// any routine"). Past this, labels are `xlabel`s, placed once the layout is done.
    public static let labelledArrowLimit = 60

    /// How many nodes make a routine large enough for `dot` to spend less effort on it: from
    /// here the placement across a rank is capped at a fifth of a pass per node (`nslimit`)
    /// and the crossing minimisation stops sooner (`mclimit`), as in the studio. The ranking
    /// is left whole (`nslimit1`): a ranking stopped early stretches arrows over more ranks,
    /// which costs `dot` more later than it saved.
    public static let largeRoutine = 100

    /// How many ranks an arrow of a large routine may cross before it is drawn to a note by
    /// its tail instead (``farArrows(_:_:gathers:)``). Past it, the arrows of every shape in
    /// `Benchmarks/shapes-gen.py` cost `dot` most of its time; within it, a branch and the
    /// arrows that skip a few steps stay whole.
    public static let farRankSpan: Int32 = 8

    /// How many characters of its target's title a far arrow's note shows.
    static let farNoteLength = 32

    /// The arrows ``writeArrows(_:_:xlabels:far:gathers:into:)`` labels: every answer's, every gather's,
    /// and every arrow of a list of several.
    static func labelledArrowCount(_ buffers: RoutineBuffers) -> Int {
        var count = 0
        for record in buffers.records {
            for k in record.options { count += Int(buffers.options[k].next.count) }
            if record.kind == .question || record.next.count > 1 { count += Int(record.next.count) }
        }
        return count
    }

    /// One statement per node, its label written from the record's bytes.
    private static func writeNodes(
        _ view: GraphView, _ buffers: RoutineBuffers, into out: inout ByteWriter, spill: (inout ByteWriter) -> Void
    ) {
        for i in buffers.records.indices where !view.isRedeclaration(i) {
            spill(&out)
            let record = buffers.records[i]
            out.write("  ")
            quote(buffers.bytes(record.id), into: &out)
            let unreachable = view.showProblems && !view.reachable[i]
            let faded = view.history.map { !$0.reached[i] } ?? false
            let filled = record.kind == .habit && !faded && view.history?.rates[i] != nil
            if record.kind == .habit {
                out.write(" [shape=box, style=\"rounded")
                if unreachable || faded { out.write(",dashed") }
                if filled { out.write(",filled") }
                out.write("\", label=\"")
            } else {
                out.write(unreachable || faded ? " [shape=hexagon, style=dashed, label=\"" : " [shape=hexagon, label=\"")
            }
            escape(buffers.bytes(record.title), into: &out)
            writeDetails(record, buffers, into: &out)
            for attribute in view.invalidAttributes[i] ?? [] {
                out.write("\\n")
                escape(attribute + " (invalid)", into: &out)
            }
            out.byte(UInt8(ascii: "\""))
            if view.invalidAttributes[i] != nil, !unreachable { out.write(", color=red") }
            if unreachable { out.write(", color=gray60, fontcolor=gray60, tooltip=\"unreachable\"") }
            if let history = view.history { writeHistory(history, of: i, record.kind == .habit, into: &out) }
            out.write("];\n")
        }
    }

    /// The line under a habit's title, as ``GraphView/details(_:)`` words it, after the `\n`
    /// that starts it; nothing when the node has no attributes. Written from the record, so
    /// that no string is built per habit.
    static func writeDetails(_ record: NodeRecord, _ buffers: RoutineBuffers, into out: inout ByteWriter) {
        var separator: StaticString = "\\n"
        if let seconds = record.duration {
            out.write(separator)
            separator = " \u{B7} "
            let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
            // As ``DurationText/human(_:)`` writes it, the one form people see everywhere.
            var spaced = false
            if h > 0 {
                out.write(h)
                out.byte(UInt8(ascii: "h"))
                spaced = true
            }
            if m > 0 {
                if spaced { out.byte(UInt8(ascii: " ")) }
                out.write(m)
                out.byte(UInt8(ascii: "m"))
                spaced = true
            }
            if s > 0 || (h == 0 && m == 0) {
                if spaced { out.byte(UInt8(ascii: " ")) }
                out.write(s)
                out.byte(UInt8(ascii: "s"))
            }
        }
        if let amount = record.amount {
            out.write(separator)
            separator = " \u{B7} "
            // A limit is no goal: "at most 2 cups", as every view says it.
            if record.atMost { out.write("at most ") } else { out.write("target ") }
            escape(NumberText.format(amount), into: &out)
            if !record.unit.isNone {
                out.byte(UInt8(ascii: " "))
                escape(buffers.bytes(record.unit), into: &out)
            }
        }
        if let days = record.days {
            out.write(separator)
            separator = " \u{B7} "
            for (k, word) in days.words.enumerated() {
                if k > 0 { out.byte(UInt8(ascii: " ")) }
                out.write(string: word)
            }
        }
        if record.perWeek > 0 {
            out.write(separator)
            out.write(Int(record.perWeek))
            out.write(" per week")
        }
    }

    /// A name no routine ID can take (IDs have no spaces).
    static func missingID(_ name: String) -> String { " missing \(name)" }

    /// A DOT double-quoted string. Inside one, `\"` is a quote and, in labels, a backslash
    /// starts an escape (`\n`, `\l`, `\N`...), so a literal backslash is doubled. Line breaks
    /// become `\n`; other control characters, which SVG cannot carry, become U+FFFD.
    public static func quote(_ text: String) -> String {
        var out = ByteWriter()
        quote(text, into: &out)
        return out.text
    }

    static func quote(_ text: String, into out: inout ByteWriter) {
        out.byte(UInt8(ascii: "\""))
        escape(text, into: &out)
        out.byte(UInt8(ascii: "\""))
    }

    @inline(__always) static func quote(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        out.byte(UInt8(ascii: "\""))
        escape(bytes, into: &out)
        out.byte(UInt8(ascii: "\""))
    }

    /// Most labels need no escaping at all: printable ASCII without quote or backslash.
    @inline(__always) private static func needsNoEscape(_ b: UInt8) -> Bool {
        b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C
    }

    /// ``needsNoEscape(_:)`` for all eight bytes of `word` at once.
    @inline(__always) private static func needsNoEscape(word: UInt64) -> Bool {
        Lexer.isPrintableOrDelete(word: word) && !Lexer.hasByte(word, 0x7F) && !Lexer.hasByte(word, 0x22)
            && !Lexer.hasByte(word, 0x5C)
    }

    /// Writes `bytes` escaped: copied as they are up to the first byte that needs an escape,
    /// and the rest scalar by scalar.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        let plain = out.writePrefix(of: bytes, isPlainWord: needsNoEscape(word:), isPlain: needsNoEscape)
        guard plain < bytes.count else { return }
        // Every byte before `plain` is ASCII, so the rest starts a scalar.
        let rest = UnsafeBufferPointer(rebasing: bytes[plain...])
        guard firstInvalidUTF8Offset(rest) == nil else {
            escape(String(decoding: rest, as: UTF8.self), into: &out)
            return
        }
        escapeValid(rest, into: &out)
    }

    /// ``escape(_:into:)-(String,_)`` of valid UTF-8, byte by byte: labels with emoji or accents
    /// would otherwise be decoded into a string and written a scalar at a time.
    private static func escapeValid(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        var i = 0
        var run = 0  // where the bytes not yet copied start
        func copy(upTo end: Int) {
            if run < end { out.write(bytes: UnsafeBufferPointer(rebasing: bytes[run..<end])) }
        }
        func replace(_ count: Int, with text: StaticString) {
            copy(upTo: i)
            out.write(text)
            i += count
            run = i
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case _ where b < 0x80 && needsNoEscape(b): i += 1
            case 0x22: replace(1, with: "\\\"")
            case 0x5C: replace(1, with: "\\\\")
            case 0x0A, 0x0D: replace(1, with: "\\n")
            case 0x09: replace(1, with: " ")
            case _ where b < 0x80: replace(1, with: "\u{FFFD}")  // other controls and DEL
            case 0xC2 where bytes[i + 1] <= 0x9F: replace(2, with: "\u{FFFD}")  // U+0080 to U+009F
            case 0xE2 where bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                replace(3, with: "\\n")  // U+2028, U+2029
            case 0xEF where bytes[i + 1] == 0xBF && bytes[i + 2] >= 0xBE: replace(3, with: "\u{FFFD}")  // U+FFFE, U+FFFF
            default: i += b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            }
        }
        copy(upTo: bytes.count)
    }

    /// The inside of a quoted string: `text` escaped.
    static func escape(_ text: String, into out: inout ByteWriter) {
        if text.utf8.allSatisfy(needsNoEscape) {
            out.write(string: text)
        } else {
            out.write(text) { scalar in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n", "\r", "\u{2028}", "\u{2029}": return "\\n"
                case "\t": return " "
                default:
                    let v = scalar.value
                    return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0xFFFE...0xFFFF).contains(v) ? "\u{FFFD}" : nil
                }
            }
        }
    }
}
