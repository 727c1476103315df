import Foundation
import TestSupport
import Testing

@testable import RoutineKit
@testable import RoutineStudio

/// A picture that stays put: a small edit moves only what it touches, and cards placed by hand
/// stay where they were put across edits and restarts, in `NAME.rt.layout` beside the routine.
@Suite struct StudioCardPlacesTests {
    static let morning = try! String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("routines/morning.rt"), encoding: .utf8)

    /// A routine in a folder of its own, removed afterwards.
    static func withRoutine(_ text: String, layout: String? = nil, _ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("morning.rt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if let layout { try layout.write(toFile: path + ".layout", atomically: true, encoding: .utf8) }
        try await body(path)
    }

    static func state(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// Each card's box by ID.
    static func boxes(_ state: [String: Any]) -> [String: (x: Double, y: Double, width: Double, height: Double)] {
        var out: [String: (x: Double, y: Double, width: Double, height: Double)] = [:]
        for node in state["nodes"] as? [[String: Any]] ?? [] {
            guard let id = node["id"] as? String, let x = node["x"] as? Double, let y = node["y"] as? Double,
                let width = node["width"] as? Double, let height = node["height"] as? Double
            else { continue }
            out[id] = (x, y, width, height)
        }
        return out
    }

    static func edit(_ document: StudioDocument, _ json: String) async throws -> [String: Any] {
        let version = await document.version
        let body = try BodyReader.read(EditBody.self, from: Array("{\"version\": \(version), \(json)}".utf8))
        guard case .done(let bytes, _) = await document.edit(body) else {
            Issue.record("the edit \(json) was not made")
            return [:]
        }
        return try state(bytes)
    }

    /// The distance the centre of each card moved, for the cards in both pictures.
    static func moves(_ a: [String: Any], _ b: [String: Any]) -> [String: Double] {
        let (before, after) = (boxes(a), boxes(b))
        var out: [String: Double] = [:]
        for (id, was) in before {
            guard let now = after[id] else { continue }
            out[id] = hypot(now.x + now.width / 2 - was.x - was.width / 2, now.y + now.height / 2 - was.y - was.height / 2)
        }
        return out
    }

    /// Edits that change one card, each of which `dot` alone would answer by moving others;
    /// every other card stays within a few points of its place.
    @Test(arguments: [
        ("an answer added", #""op": "addOption", "id": "mood", "text": "Sleepy""#),
        ("a habit added after another", #""op": "addHabit", "id": "stretch2", "title": "Stretch again", "after": "walk""#),
    ])
    func aSmallEditMovesNoOtherCard(_ name: String, _ op: String) async throws {
        try await Self.withRoutine(Self.morning) { path in
            let document = try StudioDocument(path: path)
            let before = try Self.state(await document.payload())
            let after = try await Self.edit(document, op)
            for (id, distance) in Self.moves(before, after) { #expect(distance <= 3, "\(name): '\(id)' moved \(distance) points") }
            // The same text laid out afresh, as it was before this change, moves some card: the
            // check above is one that can fail.
            let fresh = try Self.state(await StudioDocument(path: path).payload())
            #expect(Self.moves(before, fresh).values.contains { $0 > 3 }, "\(name): a fresh layout moves no card")
        }
    }

    @Test func aCardPutByHandStaysAcrossEditsRestartsAndUndo() async throws {
        try await Self.withRoutine(Self.morning) { path in
            let document = try StudioDocument(path: path)
            _ = await document.payload()
            var state = try await Self.edit(document, #""op": "move", "id": "run", "x": 640, "y": 24"#)
            #expect(state["message"] as? String == "Run moved")
            #expect(Self.boxes(state)["run"]?.x == 640 && Self.boxes(state)["run"]?.y == 24)
            let file = try String(contentsOfFile: path + ".layout", encoding: .utf8)
            #expect(file == CardPlaces.header + "run 640 24\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.morning, "the routine's text holds no coordinates")
            state = try await Self.edit(document, #""op": "setTitle", "id": "walk", "title": "Go for a long walk""#)
            #expect(Self.boxes(state)["run"]?.x == 640 && Self.boxes(state)["run"]?.y == 24)
            // A studio started again finds it where it was put.
            let restarted = try Self.state(await StudioDocument(path: path).payload())
            #expect(Self.boxes(restarted)["run"]?.x == 640 && Self.boxes(restarted)["run"]?.y == 24)
            // Tidy lays out afresh and empties the file; undo puts the card back.
            state = try await Self.edit(document, #""op": "tidy""#)
            #expect(Self.boxes(state)["run"]?.x != 640)
            #expect(try String(contentsOfFile: path + ".layout", encoding: .utf8) == CardPlaces.header)
            state = try await Self.edit(document, #""op": "undo""#)
            #expect(Self.boxes(state)["run"]?.x == 640 && Self.boxes(state)["run"]?.y == 24)
            // Undo then takes back the title, then the move itself.
            state = try await Self.edit(document, #""op": "undo""#)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.morning)
            state = try await Self.edit(document, #""op": "undo""#)
            #expect(try String(contentsOfFile: path + ".layout", encoding: .utf8) == CardPlaces.header)
            #expect(state["canUndo"] as? Bool == false)
        }
    }

    /// A routine edited elsewhere keeps the places of the nodes that still exist.
    @Test func entriesOfNodesThatAreGoneAreDropped() async throws {
        try await Self.withRoutine(Self.morning, layout: "gone 10 10\nrun 500 30\n") { path in
            let document = try StudioDocument(path: path)
            let state = try Self.state(await document.payload())
            #expect(Self.boxes(state)["run"]?.x == 500)
            #expect((state["diagnostics"] as? [[String: Any]] ?? []).allSatisfy { $0["code"] as? String != "E513" })
            _ = try await Self.edit(document, #""op": "move", "id": "walk", "x": 20, "y": 400"#)
            #expect(try String(contentsOfFile: path + ".layout", encoding: .utf8) == CardPlaces.header + "run 500 30\nwalk 20 400\n")
            let refused = await document.edit(EditBody(version: await document.version, action: .move(id: "gone", x: 1, y: 1)))
            guard case .refused(let diagnostic) = refused else {
                Issue.record("a move of a card the routine does not have was made")
                return
            }
            #expect(diagnostic.code == .unknownCard)
        }
    }

    /// A damaged layout file is ignored with E513, never a crash, and never written over.
    @Test(arguments: ["run 12\n", "run twelve 4\n", "run 1e9 4\n", "run 1 2 3\n", "\u{0}\u{1}\u{2}"])
    func aDamagedLayoutFileIsIgnored(_ damaged: String) async throws {
        try await Self.withRoutine(Self.morning, layout: damaged) { path in
            let document = try StudioDocument(path: path)
            let state = try Self.state(await document.payload())
            let codes = (state["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(codes.contains("E513"), "\(codes)")
            #expect(Self.boxes(state).count == 10)
            let refused = await document.edit(EditBody(version: await document.version, action: .move(id: "run", x: 1, y: 1)))
            guard case .refused(let diagnostic) = refused else {
                Issue.record("a damaged layout file was written over")
                return
            }
            #expect(diagnostic.code == .damagedCardPlaces)
            #expect(try String(contentsOfFile: path + ".layout", encoding: .utf8) == damaged)
        }
    }

    @Test(arguments: [
        ("run 1 2\nwater 3.5 4\n", ["run": CardPlaces.Point(x: 1, y: 2), "water": CardPlaces.Point(x: 3.5, y: 4)]),
        ("# a comment\n\nrun -1 2\n", ["run": CardPlaces.Point(x: -1, y: 2)]),
        ("", [:]),
    ])
    func layoutFilesAreRead(_ text: String, _ points: [String: CardPlaces.Point]) throws {
        guard case .success(let places) = CardPlaces.parse(Array(text.utf8), path: "m.rt.layout") else {
            Issue.record("'\(text)' was not read")
            return
        }
        #expect(places.points == points)
        // Written back sorted by ID, and read back the same.
        guard case .success(let again) = CardPlaces.parse(places.text, path: "m.rt.layout") else { return }
        #expect(again == places)
    }

    /// The gather is drawn from where the branches end: the answer without an arrow ("Tired")
    /// and the habit that ends the "Great!" branch (shower), never from the question's first port.
    @Test func theGatherStartsWhereTheBranchesEnd() async throws {
        try await Self.withRoutine(Self.morning) { path in
            let state = try Self.state(await StudioDocument(path: path).payload())
            let gathers = (state["edges"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "gather" }
            let starts = gathers.map { "\($0["via"] as? String ?? "-") \($0["viaOption"] as? Int ?? -1) \($0["to"] as? String ?? "")" }
            #expect(starts == ["mood 4 plan", "shower -1 plan"])
        }
    }
}
