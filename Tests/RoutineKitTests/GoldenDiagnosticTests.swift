import Foundation
import Testing

@testable import RoutineKit

/// Each bad routine in Fixtures/diagnostics sits beside its expected rendering:
/// `NAME.expected` (rich) and `NAME.short`. `RECORD_GOLDEN=1 swift test` re-records them.
struct GoldenDiagnosticTests {
    static let folder = testsDirectory.appendingPathComponent("Fixtures/diagnostics")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".rt") || $0.hasSuffix(".yaml") }.sorted()
    }

    static func rendered(_ name: String, style: DiagnosticRenderer.Style) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
        let loaded = RoutineLoader.load(SourceFile(name: "diagnostics/" + name, bytes: bytes))
        return DiagnosticRenderer(style: style, colors: false).render(loaded.diagnostics, in: loaded.file)
    }

    @Test func fixturesExist() {
        #expect(Self.fixtures.count >= 8)
    }

    @Test(arguments: fixtures)
    func richRendering(_ name: String) throws {
        let base = (name as NSString).deletingPathExtension
        try assertGolden(Self.rendered(name, style: .rich), Self.folder.appendingPathComponent(base + ".expected"))
    }

    @Test(arguments: fixtures)
    func shortRendering(_ name: String) throws {
        let base = (name as NSString).deletingPathExtension
        try assertGolden(Self.rendered(name, style: .short), Self.folder.appendingPathComponent(base + ".short"))
    }

    /// `check --format json` of the unreachable regions: the region's other nodes under `related`.
    @Test func jsonRendering() throws {
        let name = "unreachable-region.rt"
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let loaded = RoutineLoader.load(SourceFile(name: "diagnostics/" + name, bytes: bytes))
        var table = LineTable(loaded.file)
        let text = loaded.diagnostics.map { $0.json(in: loaded.file, table: &table).text }.joined(separator: "\n") + "\n"
        try assertGolden(text, Self.folder.appendingPathComponent("unreachable-region.json"))
    }

    /// A large routine's graph is checked on a second thread while its nodes are checked:
    /// for every bad routine here, the report is the same, in the same order, either way.
    @Test(arguments: fixtures)
    func graphCheckedAlongsideGivesTheSameReport(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let loaded = RoutineLoader.load(SourceFile(name: "diagnostics/" + name, bytes: bytes))
        let form: SourceFormat = name.hasSuffix(".rt") ? .rt : .yaml
        var memo = SuggestionMemo()
        let inline = Validator.validate(loaded.routine, form: form, suggestions: &memo, alongsideFrom: .max)
        memo = SuggestionMemo()
        let alongside = Validator.validate(loaded.routine, form: form, suggestions: &memo, alongsideFrom: 0)
        #expect(Array(alongside) == Array(inline))
    }

    @Test func colouredRenderingWrapsEscapes() throws {
        let loaded = load("routine \"R\"\nhabit a \"A\" -> b")
        let text = DiagnosticRenderer(style: .rich, colors: true).render(loaded.diagnostics, in: loaded.file)
        #expect(text.contains("\u{1B}[1;31merror[E202]:\u{1B}[0m"))
    }
}
