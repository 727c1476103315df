import Foundation
import Hummingbird
import Testing

@testable import RoutineStudio

/// The studio on a history in a sync folder: GET /api/sync lists the devices, and what another
/// device writes to the folder comes into the history and reaches the pages while the studio
/// runs (docs/sync.md).
@Suite(.serialized)
struct StudioSyncTests {
    struct Folder {
        let dir: URL
        let routine: String
        let folder: String

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("studio-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            routine = dir.appendingPathComponent("r.rt").path
            folder = dir.appendingPathComponent("shared").path
            try "routine \"R\"\nhabit water \"Water\" -> read\nhabit read \"Read\"\n".write(toFile: routine, atomically: true, encoding: .utf8)
        }

        func history(_ device: String) -> String { dir.appendingPathComponent("\(device).sqlite").path }

        func routine(_ device: String, _ arguments: [String]) throws {
            let result = try StudioRunBinary.run(arguments + ["--history", history(device)])
            #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
        }

        func join(_ device: String) throws { try routine(device, ["sync", "init", folder, "--device", device]) }
    }

    static func get(_ server: StudioServer, _ path: String) async throws -> String {
        let router = Router(context: BasicRequestContext.self)
        server.addRoutes(to: router)
        return try await ServedRouter.with(router) { client in
            let response = await client.send("GET", path)
            #expect(response.status == 200, "\(response.body)")
            return response.body
        }
    }

    @Test func aHistoryOutsideASyncFolderSaysSo() async throws {
        let f = try Folder()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        try f.routine("laptop", ["done", f.routine, "water", "--date", "2026-11-23"])
        for history in [f.history("laptop"), nil] {
            let server = try StudioServer(path: f.routine, token: StudioFixture.token, history: history)
            #expect(try await Self.get(server, "/api/sync") == #"{"member":false}"#)
        }
    }

    /// A device named with a terminal escape, a newline or a C1 control: GET /api/sync carries
    /// the name whole, every C0 control character escaped, so that no escape sequence of it
    /// reaches a terminal (curl, a log) raw.
    @Test(arguments: ["desk\u{1B}]52;c;aGk=\u{07}", "two\nlines", "csi\u{9B}31m\u{7F}"])
    func deviceNamesAreEscapedInTheJSON(_ name: String) async throws {
        let f = try Folder()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        try f.join("laptop")
        try f.routine("desk", ["sync", "init", f.folder, "--device", name])
        let server = try StudioServer(path: f.routine, token: StudioFixture.token, history: f.history("laptop"))
        let body = try await Self.get(server, "/api/sync")
        #expect(!body.unicodeScalars.contains { $0.value < 0x20 }, "\(body.debugDescription)")
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let names = (object?["devices"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains(name), "\(names)")
    }

    /// The desk logs a habit while the laptop's studio runs: one look at the folder brings it
    /// into the laptop's history, its day shows it, and the pages are told.
    @Test func anotherDevicesLogReachesTheStudio() async throws {
        let f = try Folder()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        try f.join("laptop")
        try f.join("desk")
        let server = try StudioServer(path: f.routine, token: StudioFixture.token, history: f.history("laptop"))
        let devices = try await Self.get(server, "/api/sync")
        #expect(devices.contains(#""member":true"#) && devices.contains(#""name":"laptop""#), "\(devices)")
        #expect(devices.contains(#""name":"desk""#) && devices.contains(#""this":false"#), "\(devices)")
        #expect(!(try await Self.get(server, "/api/day?date=2026-11-23")).contains(#""result":"done""#))

        try f.routine("desk", ["done", f.routine, "water", "--date", "2026-11-23"])
        let before = await server.document.historyVersion
        await SyncWatch.readIn(f.history("laptop"), server.document)
        #expect(await server.document.historyVersion > before, "the pages are told")
        #expect(try await Self.get(server, "/api/day?date=2026-11-23").contains(#""result":"done""#))
        // Nothing new: the history stays as it was, and the pages hear nothing.
        let after = await server.document.historyVersion
        await SyncWatch.readIn(f.history("laptop"), server.document)
        #expect(await server.document.historyVersion == after)
    }

    /// A history in no sync folder is opened once, then not again until its file changes: a
    /// `sync init` while the studio runs is noticed, a member is opened every second, and one
    /// that left is no longer opened.
    @Test func theWatchOpensOnlyAMembersHistory() async throws {
        let f = try Folder()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        try f.routine("laptop", ["done", f.routine, "water", "--date", "2026-11-23"])
        let server = try StudioServer(path: f.routine, token: StudioFixture.token, history: f.history("laptop"))
        let laptop = f.history("laptop")
        var membership = SyncWatch.Membership()
        var opened: [Bool] = []
        // The first look's own open may change the write-ahead log: one more look, then none.
        for _ in 0..<4 { opened.append(await SyncWatch.tick(laptop, server.document, &membership)) }
        #expect(opened.first == true && opened.suffix(2) == [false, false], "a history in no folder is looked at no more: \(opened)")
        #expect(!membership.member)
        #expect(!(try await Self.get(server, "/api/day?date=2026-11-23")).contains(#""missing":[]"#), "'read' is missing")

        try f.join("laptop")
        try f.join("desk")
        try f.routine("desk", ["done", f.routine, "read", "--date", "2026-11-23"])
        opened = []
        for _ in 0..<2 { opened.append(await SyncWatch.tick(laptop, server.document, &membership)) }
        #expect(opened == [true, true], "a member is looked at every time")
        #expect(membership.member)
        let day = try await Self.get(server, "/api/day?date=2026-11-23")
        #expect(day.contains(#""missing":[]"#), "the desk's log arrived: \(day)")

        try f.routine("laptop", ["sync", "leave"])
        opened = []
        for _ in 0..<4 { opened.append(await SyncWatch.tick(laptop, server.document, &membership)) }
        #expect(opened.first == true && opened.suffix(2) == [false, false], "a history that left is looked at no more: \(opened)")
    }
}
