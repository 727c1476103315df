import Foundation
import RoutineHistory
import RoutineKit

/// One test file as `routine test` reads it: parsed, its routine loaded, checked against it.
struct LoadedTestFile {
    let source: SourceFile
    let parsed: TestFile
    /// The routine's path as shown, relative to where the command runs.
    let routinePath: String
    let routine: LoadedRoutine?
    /// Parse errors, unknown nodes, an unusable routine: the file's cases are not run.
    let diagnostics: [Diagnostic]

    var runnable: Bool { routine != nil && !diagnostics.hasErrors }

    /// Where paths written in the test file are relative to.
    var folder: String { (source.name as NSString).deletingLastPathComponent }

    func resolve(_ path: String) -> String {
        path.hasPrefix("/") || folder.isEmpty ? path : folder + "/" + path
    }

    init(_ source: SourceFile, input: InputOptions) {
        self.source = source
        let (parsed, syntax) = TestParser.parse(source)
        self.parsed = parsed
        var diagnostics = syntax
        let folder = (source.name as NSString).deletingLastPathComponent
        let written = parsed.routinePath?.path ?? Self.routineName(for: source.name).map { ($0 as NSString).lastPathComponent }
        let span = parsed.routinePath?.span ?? Span(at: 0)
        var routine: LoadedRoutine?
        if let written {
            let path = written.hasPrefix("/") || folder.isEmpty ? written : folder + "/" + written
            routinePath = path
            switch input.read(path) {
            case .success(let loaded) where loaded.hasErrors:
                diagnostics.append(.testRoutineUnavailable(path, reason: "it has errors ('routine check \(path)' lists them)", at: span))
            case .success(let loaded):
                routine = loaded
                diagnostics += TestChecker.check(parsed, against: loaded.routine)
            case .failure(let problem):
                diagnostics.append(.testRoutineUnavailable(path, reason: problem.message, at: span))
            }
        } else {
            routinePath = ""
            diagnostics.append(.testRoutineUnavailable(source.name, reason: "its name does not say which routine it tests; add a line such as 'routine morning.rt'", at: span))
        }
        self.routine = routine
        self.diagnostics = diagnostics.sortedByPosition()
    }

    /// `morning.rt.test` tests `morning.rt`; a name without `.test` says nothing.
    static func routineName(for path: String) -> String? {
        guard path.hasSuffix(".test"), path.count > 5 else { return nil }
        let name = String(path.dropLast(5))
        return name.hasSuffix("/") ? nil : name
    }

    /// Every `*.rt.test` (and `*.yaml.test`, `*.yml.test`) under `folder`, sorted, hidden
    /// folders and `.build` left out.
    static func discover(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            if name.hasSuffix(".rt.test") || name.hasSuffix(".yaml.test") || name.hasSuffix(".yml.test") {
                found.append(folder == "." ? relative : (folder.hasSuffix("/") ? folder + relative : folder + "/" + relative))
            }
        }
        return found.sorted()
    }
}

/// The histories that cases load with `history FILE.jsonl`: each export read once, into a
/// temporary history of its own; the user's history is never opened.
struct TestHistories {
    private var stores: [String: Result<HistoryStore, Diagnostic>] = [:]

    /// The week's quota counts for `testCase`, or the diagnostic that stops it.
    mutating func doneThisWeek(_ testCase: TestCase, of file: LoadedTestFile, routine: Routine) -> Result<[Int: Int], Diagnostic> {
        guard let history = testCase.history else { return .success([:]) }
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
            return .success(try store.doneThisWeek(routine, on: testCase.runDate))
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
