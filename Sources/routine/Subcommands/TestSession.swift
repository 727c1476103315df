import ArgumentParser
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// `routine test` over files and folders: each file parsed and checked, its cases run, the
/// results written in the chosen format, then coverage and the summary line.
struct TestSession {
    let format: TestCommand.Format
    let coverage: Bool
    let strict: Bool
    let input: InputOptions
    private var out = BufferedOutput(fd: 1)
    private var histories = TestHistories()
    private var passed = 0
    private var failed = 0
    private var broken = false
    private var unreadable = false
    /// Coverage by routine path, in the order routines were first met.
    private var coverages: [(path: String, coverage: ScenarioCoverage)] = []
    private var suites: [(file: String, outcomes: [ScenarioOutcome], seconds: Double)] = []
    /// Each routine's coverage as JUnit shows it.
    private var coverageCases: [(routine: String, summary: String, failure: String?)] = []
    private let colors: Bool

    init(format: TestCommand.Format, coverage: Bool, strict: Bool, input: InputOptions) {
        self.format = format
        self.coverage = coverage
        self.strict = strict
        self.input = input
        colors = (format == .rich || format == .short) && Terminal.wantsColor(input.color, fd: 1)
    }

    mutating func run(_ paths: [String]) throws {
        var files: [String] = []
        for path in paths {
            var info = stat()
            if path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                files += LoadedTestFile.discover(under: path)
            } else {
                files.append(path)
            }
        }
        if files.isEmpty {
            StandardError.write(visible: "routine: error: no test files (*.rt.test) under \(paths.map { "'\($0)'" }.joined(separator: ", "))\n")
            throw Exit.unreadable
        }
        for path in files { runFile(path) }
        let uncovered = coverage ? reportCoverage() : 0
        finish(uncovered: uncovered)
        if unreadable { throw Exit.unreadable }
        if broken { throw Exit.testFileRefused }
        if failed > 0 || (strict && uncovered > 0) { throw Exit.errors }
    }

    private mutating func runFile(_ path: String) {
        let source: SourceFile
        switch InputReader.read(path) {
        case .success(let read): source = read
        case .failure(let diagnostic):
            unreadable = true
            return report(diagnostic, colors: input.colorsOnStandardError)
        }
        let file = LoadedTestFile(source, input: input)
        if !file.diagnostics.isEmpty {
            StandardError.write(
                DiagnosticRenderer(style: format == .short ? .short : .rich, colors: input.colorsOnStandardError).render(file.diagnostics, in: source)
            )
        }
        guard file.runnable, let loaded = file.routine else {
            broken = true
            return
        }
        let routine = loaded.routine
        let started = ContinuousClock.now
        var ways: BigCount??
        let countWays = {
            if ways == nil { ways = .some(try? PathExplorer(routine).summarize().count) }
            return ways!
        }
        var outcomes: [ScenarioOutcome] = []
        var table = LineTable(source)
        let slot = coverageSlot(file.routinePath, routine)
        for testCase in file.parsed.cases {
            var outcome: ScenarioOutcome
            switch histories.facts(testCase, of: file, routine: routine) {
            case .success(let facts):
                outcome = ScenarioRunner.run(
                    testCase, routine: routine, doneThisWeek: facts.doneThisWeek, doneEarlier: facts.doneEarlier, ways: countWays)
            case .failure(let diagnostic):
                outcome = ScenarioOutcome(name: testCase.name, span: testCase.span, failure: diagnostic)
            }
            if outcome.passed { passed += 1 } else { failed += 1 }
            if coverage { coverages[slot].coverage.add(outcome) }
            write(outcome, source: source, routine: file.routinePath, table: &table)
            outcomes.append(outcome)
        }
        suites.append((source.name, outcomes, (ContinuousClock.now - started) / .seconds(1)))
    }

    private mutating func coverageSlot(_ path: String, _ routine: Routine) -> Int {
        if let k = coverages.firstIndex(where: { $0.path == path }) { return k }
        coverages.append((path, ScenarioCoverage(routine: routine)))
        return coverages.count - 1
    }

    private mutating func write(_ outcome: ScenarioOutcome, source: SourceFile, routine: String, table: inout LineTable) {
        switch format {
        case .json:
            out.write(ScenarioReport.json(outcome, file: source, routine: routine, table: &table))
        case .junit:
            break
        case .rich, .short:
            let word = outcome.passed ? paint("PASS", "1;32") : paint("FAIL", "1;31")
            out.write(visible: "\(word) \(source.name): \(outcome.name)\n")
            if let failure = outcome.failure {
                out.write(DiagnosticRenderer(style: format == .short ? .short : .rich, colors: colors).render([failure], in: source))
            }
        }
    }

    /// Writes each routine's coverage; returns how many answers and habits are not covered.
    private mutating func reportCoverage() -> Int {
        var uncovered = 0
        for (path, coverage) in coverages {
            let missing = coverage.uncovered()
            uncovered += missing.count
            guard let loaded = try? input.load(path) else { continue }
            switch format {
            case .json:
                var table = LineTable(loaded.file)
                out.write(
                    JSONValue.object([
                        ("coverage", .string(path)),
                        ("answers", .object([("covered", .int(coverage.answers.count)), ("total", .int(coverage.answerCount))])),
                        ("habits", .object([("covered", .int(coverage.habits.count)), ("total", .int(coverage.habitCount))])),
                        ("uncovered", .array(missing.map { $0.json(in: loaded.file, table: &table) })),
                    ]))
            case .junit:
                let text = DiagnosticRenderer(style: .short, colors: false).render(missing, in: loaded.file)
                coverageCases.append((path, coverage.summary, strict && !missing.isEmpty ? text : nil))
            case .rich, .short:
                out.write(visible: "coverage of \(path): \(coverage.summary)\n")
                out.write(DiagnosticRenderer(style: .short, colors: colors).render(missing, in: loaded.file))
            }
        }
        return uncovered
    }

    private mutating func finish(uncovered: Int) {
        switch format {
        case .junit:
            let renderer = DiagnosticRenderer(style: .short, colors: false)
            let sources = Dictionary(suites.map { ($0.file, $0.file) }, uniquingKeysWith: { a, _ in a })
            out.write(
                ScenarioReport.junit(
                    suites, coverage: coverageCases,
                    rendered: { file, diagnostic in
                        let bytes = (try? InputReader.read(sources[file] ?? file).get().bytes) ?? []
                        return renderer.render([diagnostic], in: SourceFile(name: file, bytes: bytes))
                    }))
        case .json:
            break
        case .rich, .short:
            if strict, uncovered > 0 {
                out.write("coverage: \(uncovered) not covered, which --strict fails\n")
            }
            out.write("\(passed) passed, \(failed) failed\n")
        }
        out.flush()
    }

    private func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}
