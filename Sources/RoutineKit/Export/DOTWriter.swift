/// Writes a routine as a Graphviz `digraph`. Every ID and label is a quoted, escaped string,
/// so no routine, whatever its strings, produces DOT that Graphviz rejects. Output depends
/// only on the routine, so it diffs well.
public enum DOTWriter {
    public enum Direction: String, Sendable, CaseIterable { case TB, LR }

    public static func write(_ view: GraphView, direction: Direction = .TB) -> String {
        writeBytes(view, direction: direction).text
    }

    public static func writeBytes(_ view: GraphView, direction: Direction = .TB) -> ByteWriter {
        let routine = view.routine
        var out = ByteWriter(capacity: routine.nodeCount * 120)
        out.write("digraph ")
        quote(routine.name, into: &out)
        out.write(" {\n  graph [rankdir=")
        out.write(direction.rawValue)
        out.write(", label=")
        quote(routine.name, into: &out)
        out.write(", labelloc=t, fontname=\"Helvetica\", fontsize=16];\n")
        out.write("  node [fontname=\"Helvetica\", fontsize=11];\n")
        out.write("  edge [fontname=\"Helvetica\", fontsize=10];\n")
        out.write("  \" start\" [shape=circle, style=filled, fillcolor=black, label=\"\", width=0.2];\n")
        for i in routine.records.indices where !view.isRedeclaration(i) {
            let record = routine.records[i]
            out.write("  ")
            quote(record.id, of: routine, into: &out)
            let unreachable = view.showProblems && !view.reachable[i]
            if record.kind == .habit {
                out.write(unreachable ? " [shape=box, style=\"rounded,dashed\", label=" : " [shape=box, style=\"rounded\", label=")
            } else {
                out.write(unreachable ? " [shape=hexagon, style=dashed, label=" : " [shape=hexagon, label=")
            }
            out.byte(UInt8(ascii: "\""))
            routine.text.withBytes(record.title) { escape($0, into: &out) }
            if let details = view.details(of: i) {
                out.write("\\n")
                escape(details, into: &out)
            }
            out.byte(UInt8(ascii: "\""))
            if unreachable { out.write(", color=gray60, fontcolor=gray60, tooltip=\"unreachable\"") }
            out.write("];\n")
        }
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
        writeArrows(view, into: &out)
        out.write("}\n")
        return out
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

    static func quote(_ text: TextRef, of routine: Routine, into out: inout ByteWriter) {
        out.byte(UInt8(ascii: "\""))
        routine.text.withBytes(text) { escape($0, into: &out) }
        out.byte(UInt8(ascii: "\""))
    }

    /// Most labels need no escaping at all: printable ASCII without quote or backslash.
    private static func needsNoEscape(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C }

    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        if bytes.allSatisfy(needsNoEscape) {
            out.write(bytes: bytes)
        } else {
            escape(String(decoding: bytes, as: UTF8.self), into: &out)
        }
    }

    /// The inside of a quoted string: `text` escaped.
    private static func escape(_ text: String, into out: inout ByteWriter) {
        if text.utf8.allSatisfy(needsNoEscape) {
            out.write(text)
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
