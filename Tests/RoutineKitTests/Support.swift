import Foundation
import Testing

@testable import RoutineKit

/// The folder holding this test target's sources and fixtures.
let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

/// Loads `source` as a `.rt` (or YAML) file named `test.rt`.
func load(_ source: String, format: SourceFormat = .rt) -> LoadedRoutine {
    RoutineLoader.load(SourceFile(name: format == .rt ? "test.rt" : "test.yaml", text: source), format: format)
}

/// The codes of the diagnostics for `source`, in order.
func codes(_ source: String, format: SourceFormat = .rt) -> [String] {
    load(source, format: format).diagnostics.map(\.code.rawValue)
}

/// A compact, span-free description of a routine's meaning, one line per node.
func dump(_ routine: Routine) -> String {
    func targets(_ edges: [Edge]) -> String {
        edges.isEmpty ? "" : " -> " + edges.map { routine.name(of: $0.target) }.joined(separator: ",")
    }
    var lines = ["routine \(routine.name)" + (routine.startSpan == nil ? "" : " start" + targets(routine.explicitStart))]
    for node in routine.nodes {
        var line = "\(node.kind.rawValue) \(node.id) [\(node.title)]"
        if let d = node.duration { line += " for=\(d)" }
        if let t = node.target { line += " target=" + (t.atMost ? "at-most-" : "") + t.amountText + (t.unit.map { "/\($0)" } ?? "") }
        if let days = node.days { line += " on=" + days.words.joined(separator: "+") }
        if let perWeek = node.perWeek { line += " per-week=\(perWeek)" }
        if let note = node.note { line += " note=[\(note)]" }
        for option in node.options { line += " {\(option.text)\(targets(option.next))}" }
        lines.append(line + targets(node.next))
    }
    return lines.joined(separator: "\n")
}

/// Records golden files instead of comparing when `RECORD_GOLDEN=1`.
let recordingGolden = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

/// Compares `actual` with the golden file at `url`, or writes it when recording.
func assertGolden(_ actual: String, _ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if recordingGolden || !FileManager.default.fileExists(atPath: url.path) {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        if !recordingGolden { Issue.record("golden file \(url.lastPathComponent) was missing and has been recorded", sourceLocation: sourceLocation) }
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "differs from \(url.lastPathComponent); RECORD_GOLDEN=1 re-records", sourceLocation: sourceLocation)
}

/// A table row: a source and the diagnostic codes it must produce, in order.
struct CodesCase: CustomTestStringConvertible, Sendable {
    let name: String
    let source: String
    let codes: [String]
    var testDescription: String { name }

    init(name: String, source: String, codes: [String]) {
        self.name = name
        self.source = source
        self.codes = codes
    }

    init(name: String, yaml: String, codes: [String]) {
        self.init(name: name, source: yaml, codes: codes)
    }
}
