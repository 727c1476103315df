/// The machine-readable forms of `routine test`'s results.
public enum ScenarioReport {
    /// One case as a JSON object: where it is, whether it passed, its failure as `check
    /// --format json` writes a diagnostic, and its transcript in the test file's words.
    public static func json(_ outcome: ScenarioOutcome, file: SourceFile, routine: String, table: inout LineTable) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(file.name)), ("routine", .string(routine)), ("case", .string(outcome.name)),
            ("line", .int(table.locate(outcome.span.lowerBound).line)), ("result", .string(outcome.passed ? "pass" : "fail")),
        ]
        if let failure = outcome.failure { members.append(("failure", failure.json(in: file, table: &table))) }
        members.append(("transcript", .array(outcome.transcript.map { .string($0.text) })))
        return .object(members)
    }

    /// One `<testsuite>` per test file, one `<testcase>` per case, for CI systems that read
    /// JUnit XML. `rendered` gives a failure's text as `--format short` shows it.
    /// With `coverage`, a last suite named "coverage" holds one test per routine (its share
    /// covered), failed with the list of what is not covered when `--strict` fails it.
    public static func junit(
        _ suites: [(file: String, outcomes: [ScenarioOutcome], seconds: Double)],
        coverage: [(routine: String, summary: String, failure: String?)] = [],
        rendered: (String, Diagnostic) -> String
    ) -> String {
        let tests = suites.reduce(0) { $0 + $1.outcomes.count } + coverage.count
        let failures = suites.reduce(0) { $0 + $1.outcomes.filter { !$0.passed }.count } + coverage.filter { $0.failure != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"routine test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failed = suite.outcomes.filter { !$0.passed }.count
            out +=
                "  <testsuite name=\"\(xml(suite.file))\" tests=\"\(suite.outcomes.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(seconds(suite.seconds))\">\n"
            for outcome in suite.outcomes {
                out += "    <testcase classname=\"\(xml(suite.file))\" name=\"\(xml(outcome.name))\""
                guard let failure = outcome.failure else {
                    out += "/>\n"
                    continue
                }
                out += ">\n      <failure message=\"\(xml(failure.message))\" type=\"\(failure.code.rawValue)\">"
                out += xml(rendered(suite.file, failure)) + "</failure>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        if !coverage.isEmpty {
            let failed = coverage.filter { $0.failure != nil }.count
            out += "  <testsuite name=\"coverage\" tests=\"\(coverage.count)\" failures=\"\(failed)\" errors=\"0\">\n"
            for item in coverage {
                out += "    <testcase classname=\"coverage\" name=\"\(xml(item.routine)): \(xml(item.summary))\""
                guard let failure = item.failure else {
                    out += "/>\n"
                    continue
                }
                out += ">\n      <failure message=\"not covered: \(xml(item.summary))\" type=\"W013\">\(xml(failure))</failure>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Text safe inside an XML attribute or element.
    static func xml(_ text: String) -> String { MarkupText.escaped(text) }
}
