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
        let diagnostics = parsed.diagnostics + Validator.validate(parsed.routine)
        return LoadedRoutine(
            file: file, format: format, routine: parsed.routine, diagnostics: diagnostics.sortedByPosition(),
            comments: parsed.comments)
    }
}
