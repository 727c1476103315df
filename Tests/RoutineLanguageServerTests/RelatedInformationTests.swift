import Foundation
import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// The published diagnostics of RoutineKitTests' unreachable-region fixture, one per line,
/// against `unreachable-region.lsp.json` beside it: a region's other nodes are related
/// information of its one warning, not warnings of their own. `RECORD_GOLDEN=1` re-records.
struct RelatedInformationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RoutineKitTests/Fixtures/diagnostics")

    @Test func anUnreachableRegionListsItsOtherNodesAsRelatedInformation() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("unreachable-region.rt"), encoding: .utf8)
        let t = TestServer(text: text)
        let published = t.messages.last { $0["method"] == "textDocument/publishDiagnostics" }
        let lines = (published?["params"]?["diagnostics"]?.array ?? []).map(\.text).joined(separator: "\n") + "\n"
        let url = Self.folder.appendingPathComponent("unreachable-region.lsp.json")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" || !FileManager.default.fileExists(atPath: url.path) {
            try lines.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(lines == (try String(contentsOf: url, encoding: .utf8)))
        #expect(published?["params"]?["diagnostics"]?.array?.filter { $0["code"] == "W001" }.count == 3)
    }

    /// Past a hundred places the list closes with a count, so a keystroke never resends thousands.
    @Test func aLargeRegionListsAHundredPlacesAndACount() {
        var text = "routine \"C\"\n"
        for i in 0..<500 { text += "habit n\(i) \"S\"" + (i == 249 ? " -> n250x" : i < 499 ? " -> n\(i + 1)" : "") + "\n" }
        let t = TestServer(text: text)
        let published = t.messages.last { $0["method"] == "textDocument/publishDiagnostics" }
        let diagnostics = published?["params"]?["diagnostics"]?.array ?? []
        #expect(diagnostics.map { $0["code"] } == ["E202", "W001"])
        let related = diagnostics.last?["relatedInformation"]?.array ?? []
        #expect(related.count == 1 + 100 + 1)
        #expect(related.last?["message"] == "and 149 more")
    }
}

/// The diagnostics published as bytes are those of the tree of values the server builds for
/// the other requests (code actions), serialized: every diagnostics fixture, in both position
/// encodings, with and without a documentation address, and a large cut-off region.
struct LanguageServerDiagnosticBytesTests {
    static let sources: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RelatedInformationTests.folder.path)) ?? []
        var sources = names.filter { $0.hasSuffix(".rt") || $0.hasSuffix(".yaml") }.sorted()
        sources.append("chain")
        return sources
    }()

    @Test(arguments: sources, [PositionEncoding.utf8, .utf16])
    func theBytesAreTheTreeSerialized(source: String, encoding: PositionEncoding) throws {
        let bytes: [UInt8]
        if source == "chain" {
            var text = "routine \"C\"\n"
            for i in 0..<300 { text += "habit n\(i) \"S é\"" + (i == 149 ? " -> n150x" : i < 299 ? " -> n\(i + 1)" : "") + "\n" }
            bytes = Array(text.utf8)
        } else {
            bytes = Array(try Data(contentsOf: RelatedInformationTests.folder.appendingPathComponent(source)))
        }
        let uri = "file:///tmp/a%20b/" + (source == "chain" ? "c.rt" : source)
        let snapshot = Snapshot(uri: uri, version: 1, text: bytes, format: nil, encoding: encoding)
        #expect(!snapshot.loaded.diagnostics.isEmpty)
        for documentation in [nil, "https://example.org/grammar.md"] {
            let server = LanguageServer(documentation: documentation, send: { _ in })
            let diagnostics = snapshot.loaded.diagnostics
            let tree = JSON.array(diagnostics.map { server.lspDiagnostic($0, uri: uri, positions: snapshot.positions) })
            let written = server.diagnosticBytes(diagnostics, uri: uri, positions: snapshot.positions)
            #expect(String(decoding: written, as: UTF8.self) == tree.text, "\(source)")
        }
    }
}
