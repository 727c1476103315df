import RoutineKit

/// One version of an open test file (`.rt.test`): parsed, checked against its routine (the
/// open document of it, else the file on disk), and its cases run to find inputs that the
/// question asked at that point does not take.
public final class ScenarioSnapshot: Sendable {
    public let uri: String
    public let version: Int?
    public let file: SourceFile
    public let parsed: ScenarioFile
    let syntax: [Diagnostic]
    /// The routine's path, when the test file says which it is.
    public let routinePath: String?
    public let routine: LoadedRoutine?
    public let diagnostics: [Diagnostic]
    let positions: PositionMap
    let encoding: PositionEncoding

    /// Whether a document is a test file: its language, or its name (`*.test`).
    static func isTestFile(uri: String, languageId: String?) -> Bool {
        languageId == "routine-test" || uri.hasSuffix(".test")
    }

    convenience init(uri: String, version: Int?, text: [UInt8], encoding: PositionEncoding, routine: (String) -> Result<LoadedRoutine, Diagnostic>) {
        let file = SourceFile(name: (try? FileURI.path(uri).get()) ?? uri, bytes: text)
        let (parsed, syntax) = ScenarioParser.parse(file)
        let (path, loaded, found) = ScenarioChecker.resolve(parsed, testPath: file.name, load: routine)
        self.init(
            uri: uri, version: version, file: file, parsed: parsed, syntax: syntax, routinePath: path, routine: loaded, found: found,
            encoding: encoding)
    }

    private init(
        uri: String, version: Int?, file: SourceFile, parsed: ScenarioFile, syntax: [Diagnostic], routinePath: String?, routine: LoadedRoutine?,
        found: [Diagnostic], encoding: PositionEncoding
    ) {
        self.uri = uri
        self.version = version
        self.file = file
        self.parsed = parsed
        self.syntax = syntax
        self.routinePath = routinePath
        self.routine = routine
        self.encoding = encoding
        positions = PositionMap(file, encoding: encoding)
        var all = syntax + found
        if let routine, !all.hasErrors {
            // A case with a history needs its export's quotas: it is left to `routine test`.
            for testCase in parsed.cases where testCase.history == nil {
                let outcome = ScenarioRunner.run(testCase, routine: routine.routine)
                if outcome.failedAtInput, let failure = outcome.failure { all.append(failure) }
            }
        }
        diagnostics = all.sortedByPosition()
    }

    /// The same text checked against a new version of its routine.
    func rechecked(routine: LoadedRoutine) -> ScenarioSnapshot {
        let (path, loaded, found) = ScenarioChecker.resolve(parsed, testPath: file.name, load: { _ in .success(routine) })
        return ScenarioSnapshot(
            uri: uri, version: version, file: file, parsed: parsed, syntax: syntax, routinePath: path, routine: loaded, found: found,
            encoding: encoding)
    }
}

extension LanguageServer {
    /// The routine at `path`: the open document, else the file.
    func routineForTest(at path: String) -> Result<LoadedRoutine, Diagnostic> {
        if let open = documents.values.first(where: { $0.file.name == path }) { return .success(open.loaded) }
        return InputReader.read(path).map { RoutineLoader.load($0) }
    }
}
