/// Reads YAML routines.
enum YAMLRoutineReader {
    static func read(_ file: SourceFile) -> ParsedRoutine {
        ParsedRoutine(
            routine: Routine(name: ""),
            diagnostics: [Diagnostic(.yamlSyntax, "YAML input is not supported yet", at: Span(at: 0))], comments: [])
    }
}
