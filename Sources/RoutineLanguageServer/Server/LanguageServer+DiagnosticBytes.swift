import RoutineKit

extension LanguageServer {
    /// The diagnostics of a version as the JSON array ``lspDiagnostic(_:uri:positions:)`` gives,
    /// written straight to bytes: published at every keystroke, and a cut-off chain's warning
    /// alone has a hundred related places, each three objects deep, which as a tree of
    /// dictionaries cost more to build and to sort the keys of than to check the routine's
    /// arrows. The bytes are the tree's, serialized (checked on every fixture and seeded edits).
    func diagnosticBytes(_ diagnostics: [Diagnostic], uri: String, positions: PositionMap) -> [UInt8] {
        var out = ByteWriter(capacity: 512 * diagnostics.count + 2)
        var quotedURI = ByteWriter(capacity: uri.utf8.count + 2)
        JSONValue.quote(uri, into: &quotedURI)
        let uriBytes = quotedURI.bytes
        out.byte(UInt8(ascii: "["))
        for (k, diagnostic) in diagnostics.enumerated() {
            if k > 0 { out.byte(UInt8(ascii: ",")) }
            write(diagnostic, uri: uriBytes, positions: positions, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
        return out.bytes
    }

    /// One diagnostic, its keys in the sorted order the tree is serialized in.
    private func write(_ diagnostic: Diagnostic, uri: [UInt8], positions: PositionMap, into out: inout ByteWriter) {
        let span = diagnostic.span ?? Span(at: 0)
        out.write("{\"code\":")
        JSONValue.quote(diagnostic.code.rawValue, into: &out)
        if let documentation {
            out.write(",\"codeDescription\":{\"href\":")
            JSONValue.quote(documentation + "#diagnostics", into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        out.write(",\"message\":")
        JSONValue.quote(diagnostic.message, into: &out)
        out.write(",\"range\":")
        positions.write(range: span, into: &out)
        var first = true
        func related(_ place: Span, _ message: String) {
            out.write(first ? ",\"relatedInformation\":[" : ",")
            first = false
            out.write("{\"location\":{\"range\":")
            positions.write(range: place, into: &out)
            out.write(",\"uri\":")
            uri.withUnsafeBufferPointer { out.write(bytes: $0) }
            out.write("},\"message\":")
            JSONValue.quote(message, into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        // The same places, in the same order, as lspDiagnostic(_:uri:positions:) lists them.
        for label in diagnostic.secondary { related(label.span, label.message) }
        for note in diagnostic.notes where !note.summarizesRelated { related(note.span ?? span, note.message) }
        if let fix = diagnostic.fixIt { related(fix.span, "help: " + fix.message) }
        for label in diagnostic.related.prefix(Self.relatedListed) { related(label.span, label.message) }
        if diagnostic.related.count > Self.relatedListed { related(span, "and \(diagnostic.related.count - Self.relatedListed) more") }
        if !first { out.byte(UInt8(ascii: "]")) }
        out.write(",\"severity\":")
        out.write(diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3)
        out.write(",\"source\":\"routine\"")
        if diagnostic.code == .unreachableNode { out.write(",\"tags\":[1]") }
        out.byte(UInt8(ascii: "}"))
    }
}
