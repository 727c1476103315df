/// A routine read from one input, with everything found wrong with it.
public struct LoadedRoutine: Sendable {
    public var file: SourceFile
    public var format: SourceFormat
    public var routine: Routine
    /// Syntax and validation diagnostics, sorted by position.
    public var diagnostics: [Diagnostic]
    /// Comment spans of a `.rt` file.
    public var comments: [Span]
    /// The validator's "did you mean" answers, for the next version of an edited document.
    public var suggestions = SuggestionMemo()
    /// Whether the `.rt` parser found nothing to say: the next version of an edited document
    /// may then take this one's parse where the edit could not change it.
    var parsedCleanly = false

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Reads a routine in either form and validates it.
public enum RoutineLoader {
    /// Parses `file` as `format` (or the form its extension names, `.rt` by default) and,
    /// unless reading failed outright, runs the validator. `previous`, an earlier version of
    /// the same document, lends the validator its suggestions where they are sure to be the same.
    public static func load(_ file: SourceFile, format: SourceFormat? = nil, previous: LoadedRoutine? = nil) -> LoadedRoutine {
        let format = format ?? file.formatFromExtension ?? .rt
        if let encoding = WideEncoding(file.bytes) {
            // Read as UTF-8 it is noise, and libyaml would take UTF-16 with wrong positions.
            return LoadedRoutine(
                file: file, format: format, routine: RoutineParser.parse(SourceFile(name: file.name, bytes: [])).routine,
                diagnostics: [.wideEncoding(encoding.description, iconvName: encoding.iconvName)], comments: [])
        }
        var parsed: ParsedRoutine
        switch format {
        case .rt:
            if let previous, previous.parsedCleanly, previous.format == .rt,
                let reused = RoutineParser.reparse(file, old: previous.file.bytes, previous: previous.routine, comments: previous.comments)
            {
                parsed = reused
            } else {
                parsed = RoutineParser.parse(file)
            }
            if let key = yamlKeyOpening(file.bytes) {
                // One error that names the cause, instead of one per line of YAML.
                parsed.diagnostics = DiagnosticList([.looksLikeYAML(at: key)])
                parsed.isComplete = false
            }
        case .yaml: parsed = YAMLRoutineReader.read(file)
        }
        var memo = previous?.suggestions ?? SuggestionMemo()
        var found = parsed.isComplete ? Validator.validate(parsed.routine, form: format, suggestions: &memo) : DiagnosticList()
        if parsed.diagnostics.hasErrors {
            // After a syntax error part of the graph is missing, so "unreachable" and "empty"
            // would mostly describe the parser's recovery, not the author's routine.
            found.removeAll { $0.code == .unreachableNode || $0.code == .emptyRoutine }
        }
        // An ID that cannot be one has been reported; "unknown target" on it would say it again.
        let badIDs = Set(parsed.diagnostics.lazy.filter { $0.code == .unexpectedCharacter }.compactMap(\.span))
        if !badIDs.isEmpty { found.removeAll { ($0.code == .unknownTarget || $0.code == .unknownStart) && badIDs.contains($0.span!) } }
        if !parsed.misspeltDeclarations.isEmpty {
            // `habbit pack` was reported; "unknown target 'pack'" follows from it, and would
            // come first in the file, before its cause.
            found.removeAll { d in
                guard d.code == .unknownTarget, let span = d.span else { return false }
                return parsed.misspeltDeclarations.contains(String(decoding: file.bytes[span.lowerBound..<span.upperBound], as: UTF8.self))
            }
        }
        let diagnostics = parsed.diagnostics + found
        var loaded = LoadedRoutine(
            file: file, format: format, routine: parsed.routine, diagnostics: diagnostics.finished(),
            comments: parsed.comments, suggestions: parsed.isComplete ? memo : SuggestionMemo())
        loaded.parsedCleanly = format == .rt && parsed.isComplete && parsed.diagnostics.isEmpty && parsed.misspeltDeclarations.isEmpty
        return loaded
    }
}

/// The span of `routine:`, `nodes:` or `---` when one opens the input (after blank lines and
/// comments): a YAML routine handed to the `.rt` reader.
func yamlKeyOpening(_ bytes: [UInt8]) -> Span? {
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while i < bytes.count {
        var end = i
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        let line = bytes[i..<end]
        let content = line.drop { $0 == 0x20 || $0 == 0x09 }
        if content.isEmpty || content.first == UInt8(ascii: "#") {
            i = end + 1
            continue
        }
        for opening in ["routine:", "nodes:", "---"] where line.starts(with: Array(opening.utf8)) {
            let rest = line.dropFirst(opening.utf8.count)
            if rest.isEmpty || rest.first == 0x20 || rest.first == 0x09 { return Span(start: i, end: i + opening.utf8.count) }
        }
        return nil
    }
    return nil
}

/// UTF-16 or UTF-32, told by a byte order mark or by the zero bytes of ASCII text.
struct WideEncoding: CustomStringConvertible {
    var bits: Int
    var bigEndian: Bool
    var hasBOM: Bool

    init?(_ b: [UInt8]) {
        func starts(_ prefix: [UInt8]) -> Bool { b.starts(with: prefix) }
        if starts([0xFF, 0xFE, 0, 0]) {
            (bits, bigEndian, hasBOM) = (32, false, true)
        } else if starts([0, 0, 0xFE, 0xFF]) {
            (bits, bigEndian, hasBOM) = (32, true, true)
        } else if starts([0xFF, 0xFE]) {
            (bits, bigEndian, hasBOM) = (16, false, true)
        } else if starts([0xFE, 0xFF]) {
            (bits, bigEndian, hasBOM) = (16, true, true)
        } else if b.count >= 4, b[0] != 0, b[1] == 0, b[2] == 0, b[3] == 0 {
            (bits, bigEndian, hasBOM) = (32, false, false)
        } else if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0, b[3] != 0 {
            (bits, bigEndian, hasBOM) = (32, true, false)
        } else if b.count >= 4, b[0] != 0, b[1] == 0, b[2] != 0, b[3] == 0 {
            (bits, bigEndian, hasBOM) = (16, false, false)
        } else if b.count >= 4, b[0] == 0, b[1] != 0, b[2] == 0, b[3] != 0 {
            (bits, bigEndian, hasBOM) = (16, true, false)
        } else {
            return nil
        }
    }

    /// The name `iconv -f` takes for it.
    var iconvName: String { "UTF-\(bits)" + (hasBOM ? "" : bigEndian ? "BE" : "LE") }

    var description: String {
        "UTF-\(bits) (\(bigEndian ? "big" : "little")-endian, \(hasBOM ? "with" : "without") a byte order mark)"
    }
}
