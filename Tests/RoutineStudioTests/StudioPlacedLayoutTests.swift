import Foundation
import TestSupport
import Testing

@testable import RoutineKit
@testable import RoutineStudio

/// Edits placed on the picture shown, without Graphviz: a title, a note, an answer, an arrow,
/// a new card. The rest of the picture keeps its places and its arrows' curves; what cannot be
/// placed well is laid out by `dot` as before.
@Suite struct StudioPlacedLayoutTests {
    typealias Places = StudioCardPlacesTests

    /// Two habits side by side under a question, the second far wider than the first needs.
    static let sideBySide = """
        routine "Side"
        question q "Which?"
          "Left" -> a
          "Right" -> b
        habit a "A"
        habit b "B"

        """

    static func routine(_ name: String, folder: URL) throws -> String {
        switch name {
        case "morning": return Places.morning
        case "side by side": return sideBySide
        default: return try StudioQuestionStatsTests.generated(200, into: folder)
        }
    }

    static func withRoutine(_ name: String, _ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("placed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try routine(name, folder: folder)
        try await Places.withRoutine(text, body)
    }

    /// The phases of the edit, and the state it answered with.
    static func edit(_ document: StudioDocument, _ json: String) async throws -> (phases: [String], state: [String: Any]) {
        let version = await document.version
        let body = try BodyReader.read(EditBody.self, from: Array("{\"version\": \(version), \(json)}".utf8))
        let answer = await document.edit(body)
        guard case .done(let bytes, let phases) = answer else {
            Issue.record("the edit \(json) was not made: \(answer)")
            return ([], [:])
        }
        return (phases.phases.map(\.name), try Places.state(bytes))
    }

    /// Each arrow's points and tip by its ends, answer and kind.
    static func arrows(_ state: [String: Any]) -> [String: [[Double]]] {
        var out: [String: [[Double]]] = [:]
        for edge in state["edges"] as? [[String: Any]] ?? [] {
            let key = "\(edge["from"] ?? "-") \(edge["to"] ?? "-") \(edge["option"] ?? "-") \(edge["kind"] ?? "-") \(edge["via"] ?? "-")"
            var points = edge["points"] as? [[Double]] ?? []
            if let tip = edge["tip"] as? [Double] { points.append(tip) }
            out[key, default: []] += points
        }
        return out
    }

    /// The boxes Graphviz gives the cards are the sizes the placement gives them, so that a
    /// card no edit touched is never taken for one that changed.
    @Test(arguments: ["morning", "generated"])
    func cardSizesAreGraphvizBoxes(_ name: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sizes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let routine = RoutineLoader.load(SourceFile(name: "r.rt", text: try Self.routine(name, folder: folder))).routine
        var cache = LayoutCache()
        var phases = StudioPhases()
        let pending = cache.begin(for: routine, phases: &phases)
        let layout = try cache.finish(pending, phases: &phases).get()
        let sizes = StudioLayout.cardSizes(routine)
        #expect(layout.boxes.count > 10)
        for (graphName, box) in layout.boxes {
            let size = try #require(sizes[graphName], "\(graphName) has no size")
            #expect(abs(size.width - box.width) <= 0.5 && abs(size.height - box.height) <= 0.5, "\(graphName): \(size) against \(box)")
        }
    }

    /// Edits that change one card or one arrow: no Graphviz, no other card moved, and every
    /// arrow that does not touch the changed card keeps its curve.
    @Test(arguments: [
        ("morning", "a title", #""op": "setTitle", "id": "walk", "title": "Go for a stroll""#, "walk"),
        ("morning", "a duration", #""op": "setAttributes", "id": "walk", "duration": "1h15m""#, "walk"),
        ("generated", "an answer added", #""op": "addOption", "id": "q6", "text": "Sleepy""#, "q6"),
        ("generated", "a title", #""op": "setTitle", "id": "h5", "title": "A much longer title than before""#, "h5"),
        ("generated", "an arrow added", #""op": "connect", "from": "h3", "to": "h150""#, "h3"),
        ("generated", "a habit added after another", #""op": "addHabit", "id": "fresh", "title": "Fresh", "after": "h20""#, "h20"),
    ])
    func anEditIsPlacedWithoutGraphviz(_ name: String, _ what: String, _ op: String, _ touched: String) async throws {
        try await Self.withRoutine(name) { path in
            let document = try StudioDocument(path: path)
            // The first state, then one edit seen, as a page sees it: the picture is then the studio's own.
            let before = try Places.state(await document.payload())
            let (phases, after) = try await Self.edit(document, op)
            #expect(phases.contains("placed"), "\(name), \(what): \(phases)")
            #expect(!phases.contains("dot") && !phases.contains("pinned"), "\(name), \(what): \(phases)")
            for (id, distance) in Places.moves(before, after) where id != touched {
                #expect(distance <= 0.5, "\(name), \(what): '\(id)' moved \(distance) points")
            }
            let (was, now) = (Self.arrows(before), Self.arrows(after))
            var kept = 0
            for (key, points) in was where !key.contains(touched) {
                #expect(now[key] == points, "\(name), \(what): the arrow \(key) changed")
                kept += 1
            }
            #expect(kept > 3)
            // Every arrow of the new routine is drawn, ending at its head's edge.
            let edges = after["edges"] as? [[String: Any]] ?? []
            #expect(!edges.isEmpty && edges.allSatisfy { ($0["points"] as? [Any])?.isEmpty == false })
        }
    }

    /// Whether any two cards overlap.
    static func overlapping(_ state: [String: Any]) -> [String] {
        let boxes = Places.boxes(state).sorted { $0.key < $1.key }
        var out: [String] = []
        for (i, (a, p)) in boxes.enumerated() {
            for (b, q) in boxes[(i + 1)...] where p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height {
                out.append("\(a) and \(b)")
            }
        }
        return out
    }

    /// A card grown over its neighbour is moved right past it, placed without Graphviz; the
    /// neighbour stays.
    @Test func aCardGrownOverItsNeighbourMovesPastIt() async throws {
        try await Self.withRoutine("side by side") { path in
            let document = try StudioDocument(path: path)
            let before = try Places.state(await document.payload())
            let op = #""op": "setTitle", "id": "a", "title": "A title long enough to reach the next card""#
            let (phases, after) = try await Self.edit(document, op)
            #expect(phases.contains("placed"), "\(phases)")
            #expect(Self.overlapping(after).isEmpty, "\(Self.overlapping(after))")
            #expect((Places.moves(before, after)["b"] ?? 99) <= 0.5)
        }
    }

    /// A straight arrow that would cross cards in a small routine is laid out by `dot` again,
    /// and a card that grew in the same change does not cover its neighbour there either.
    @Test(arguments: [
        ("an arrow across the picture", #""op": "connect", "from": "water", "to": "water2""#),
        (
            "and a card grown over its neighbours",
            #""op": "together", "ops": [{"op": "connect", "from": "water", "to": "water2"}, {"op": "setTitle", "id": "walk", "title": "Go for a long walk by the river and back again"}]"#
        ),
    ])
    func whatCannotBePlacedIsLaidOut(_ what: String, _ op: String) async throws {
        try await Self.withRoutine("morning") { path in
            let document = try StudioDocument(path: path)
            _ = try Places.state(await document.payload())
            let (phases, after) = try await Self.edit(document, op)
            #expect(!phases.contains("placed") && phases.contains("dot"), "\(what): \(phases)")
            #expect(Self.overlapping(after).isEmpty, "\(what): \(Self.overlapping(after))")
        }
    }

    /// A card renamed keeps its place; Tidy lays the routine out afresh with `dot`.
    @Test func aRenamedCardStaysAndTidyLaysOutAfresh() async throws {
        try await Self.withRoutine("morning") { path in
            let document = try StudioDocument(path: path)
            let before = try Places.state(await document.payload())
            let (_, renamed) = try await Self.edit(document, #""op": "rename", "id": "walk", "newId": "stroll""#)
            let was = try #require(Places.boxes(before)["walk"])
            let now = try #require(Places.boxes(renamed)["stroll"])
            #expect(abs(was.x - now.x) <= 0.5 && abs(was.y - now.y) <= 0.5)
            let (phases, _) = try await Self.edit(document, #""op": "tidy""#)
            #expect(!phases.contains("placed"), "\(phases)")
        }
    }
}
