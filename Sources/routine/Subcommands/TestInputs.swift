import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One test file as `routine test` reads it: parsed, its routine loaded, checked against it.
struct LoadedTestFile {
    let source: SourceFile
    let parsed: ScenarioFile
    /// The routine's path as shown, relative to where the command runs.
    let routinePath: String
    let routine: LoadedRoutine?
    /// Parse errors, unknown nodes, an unusable routine: the file's cases are not run.
    let diagnostics: [Diagnostic]

    var runnable: Bool { routine != nil && !diagnostics.hasErrors }

    func resolve(_ path: String) -> String { ScenarioFile.resolve(path, besideTestAt: source.name) }

    init(_ source: SourceFile, input: InputOptions) {
        self.source = source
        let (parsed, syntax) = ScenarioParser.parse(source)
        self.parsed = parsed
        let (path, routine, found) = ScenarioChecker.resolve(parsed, testPath: source.name, load: { input.read($0) })
        routinePath = path ?? ""
        let diagnostics = syntax + (syntax.hasErrors ? found.filter { $0.code == .testRoutineUnavailable } : found)
        self.routine = routine
        self.diagnostics = diagnostics.sortedByPosition()
    }

    /// Every `*.rt.test` (and `*.yaml.test`, `*.yml.test`) under `folder`, sorted, hidden
    /// folders and `.build` left out, and only regular files: opening a named pipe of that name
    /// would wait for a writer forever.
    static func discover(under folder: String) -> [String] {
        var found: [String] = []
        walk(folder, "") { relative in
            let path = folder == "." ? relative : (folder.hasSuffix("/") ? folder + relative : folder + "/" + relative)
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { found.append(path) }
        }
        return found.sorted()
    }

    /// Hands `body` the path, relative to `root`, of each test file's name in the folder `root`
    /// + `relative` and the folders below it. A link to a folder is not followed, and a folder
    /// that cannot be read is passed over.
    private static func walk(_ root: String, _ relative: String, _ body: (String) -> Void) {
        let here = relative.isEmpty ? root : (root.hasSuffix("/") ? root : root + "/") + relative
        guard let folder = opendir(here) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // Hidden files and folders (`.build`, `.git`) are left out, and `.` and `..` with them.
            if name.hasPrefix(".") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            if lstat(here + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                walk(root, path, body)
            } else if name.hasSuffix(".rt.test") || name.hasSuffix(".yaml.test") || name.hasSuffix(".yml.test") {
                body(path)
            }
        }
    }
}

/// The histories that cases load with `history FILE.jsonl`: each export read once, into a
/// temporary history of its own; the user's history is never opened.
struct TestHistories {
    private var stores: [String: Result<HistoryStore, Diagnostic>] = [:]

    /// What a run of `testCase`'s day takes from a history, as `routine run` takes it.
    struct Facts {
        /// The week's quota counts.
        var doneThisWeek: [Int: Int] = [:]
        /// The habits a log or a run already did that day.
        var doneEarlier: [Int: Completion] = [:]
    }

    /// What `testCase`'s history says of its day, or the diagnostic that stops it.
    mutating func facts(_ testCase: Scenario, of file: LoadedTestFile, routine: Routine) -> Result<Facts, Diagnostic> {
        guard let history = testCase.history else { return .success(Facts()) }
        let path = file.resolve(history.path)
        let store: HistoryStore
        switch stores[path] ?? Self.load(path, at: history.span) {
        case .success(let loaded):
            stores[path] = .success(loaded)
            store = loaded
        case .failure(let diagnostic):
            stores[path] = .failure(diagnostic)
            return .failure(Self.located(diagnostic, at: history.span))
        }
        do {
            let day = testCase.runDate
            return .success(Facts(doneThisWeek: try store.doneThisWeek(routine, on: day), doneEarlier: try store.doneEarlier(of: routine, on: day)))
        } catch {
            return .failure(Self.located(error.diagnostic, at: history.span))
        }
    }

    private static func located(_ diagnostic: Diagnostic, at span: Span) -> Diagnostic {
        var d = diagnostic
        d.span = d.span ?? span
        return d
    }

    private static func load(_ path: String, at span: Span) -> Result<HistoryStore, Diagnostic> {
        let source: SourceFile
        switch InputReader.read(path) {
        case .success(let read): source = read
        case .failure(let diagnostic): return .failure(.testRoutineUnavailable(path, reason: diagnostic.message, at: span))
        }
        let runs: [StoredRun]
        do {
            runs = try HistoryJSON.decodeAll(source.bytes)
        } catch {
            var d = Diagnostic.invalidImport(path, line: error.line, reason: error.reason)
            d.span = span
            return .failure(d)
        }
        do {
            let store = try HistoryStore.temporary()
            _ = try store.insertRuns(runs)
            return .success(store)
        } catch {
            return .failure(error.diagnostic)
        }
    }
}
