/// A routine read from one input, with everything found wrong with it.
public struct LoadedRoutine: Sendable {
    public var file: SourceFile
    public var format: SourceFormat
    public var routine: Routine
    /// Syntax and validation diagnostics, sorted by position.
    public var diagnostics: [Diagnostic]
    /// Comment spans of a `.rt` file.
    public var comments: [Span]

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Reads a routine in either form and validates it.
public enum RoutineLoader {
    /// Parses `file` as `format` (or the form its extension names, `.rt` by default) and,
    /// unless reading failed outright, runs the validator.
    public static func load(_ file: SourceFile, format: SourceFormat? = nil) -> LoadedRoutine {
        let format = format ?? file.formatFromExtension ?? .rt
        let parsed: ParsedRoutine
        switch format {
        case .rt: parsed = RoutineParser.parse(file)
        case .yaml: parsed = YAMLRoutineReader.read(file)
        }
        var found = parsed.isComplete ? Validator.validate(parsed.routine) : []
        if parsed.diagnostics.hasErrors {
            // After a syntax error part of the graph is missing, so "unreachable" and "empty"
            // would mostly describe the parser's recovery, not the author's routine.
            found.removeAll { $0.code == .unreachableNode || $0.code == .emptyRoutine }
        }
        let diagnostics = parsed.diagnostics + found
        return LoadedRoutine(
            file: file, format: format, routine: parsed.routine, diagnostics: diagnostics.sortedByPosition(),
            comments: parsed.comments)
    }
}
