/// Edits of a YAML routine: the op is made on the routine's `.rt` form and the result written
/// by the YAML writer, which keeps every value but no comment. So a YAML file with comments is
/// read-only in the studio.
extension RoutineEditor {
    /// Why a YAML file cannot be edited, or nil when it can.
    public static func yamlReadOnlyReason(_ bytes: [UInt8]) -> String? {
        yamlHasComment(bytes) ? "it has comments, and the YAML writer would drop them" : nil
    }

    /// Applies `op` to a file of either form.
    public static func apply(_ op: RoutineEditOp, to file: SourceFile, format: SourceFormat) -> Result<EditOutcome, Diagnostic> {
        guard format == .yaml else { return apply(op, to: file) }
        if let reason = yamlReadOnlyReason(file.bytes) { return .failure(.yamlReadOnly(reason)) }
        let loaded = RoutineLoader.load(file, format: .yaml)
        if let broken = loaded.diagnostics.first(where: { $0.severity == .error && (isSyntax($0.code) || $0.code.rawValue.hasPrefix("E3")) }) {
            return .failure(.editOnBrokenFile(broken))
        }
        let rt = SourceFile(name: "routine.rt", text: RoutinePrinter.print(loaded.routine))
        return apply(op, to: rt).map { outcome in
            let edited = RoutineLoader.load(SourceFile(name: "routine.rt", bytes: outcome.bytes), format: .rt)
            return EditOutcome(bytes: Array(YAMLWriter.write(edited.routine).utf8), message: outcome.message)
        }
    }

    /// Whether YAML text holds a comment: `#` at a line's start or after a blank, outside quotes.
    static func yamlHasComment(_ bytes: [UInt8]) -> Bool {
        var quote: UInt8? = nil
        var previous: UInt8 = 0x0A
        for b in bytes {
            if let q = quote {
                if b == q { quote = nil } else if b == 0x0A { quote = nil }
            } else if b == UInt8(ascii: "#"), previous == 0x20 || previous == 0x09 || previous == 0x0A || previous == 0x0D {
                return true
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'"),
                previous == 0x20 || previous == 0x0A || previous == UInt8(ascii: ":") || previous == UInt8(ascii: "[")
                    || previous == UInt8(ascii: ",") || previous == UInt8(ascii: "-")
            {
                quote = b
            }
            previous = b
        }
        return false
    }
}
