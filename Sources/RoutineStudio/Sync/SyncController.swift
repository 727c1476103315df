import Hummingbird
import RoutineHistory
import RoutineKit
import ServiceLifecycle

/// The devices of the history's sync folder: GET /api/sync, what `routine sync status` lists
/// (docs/sync.md), for the page's header.
struct SyncController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("sync", use: sync)
    }

    /// `{"member":false}` without a sync folder (or without a history); else the folder,
    /// this device, every device with its last event, what is not written yet, and the lines
    /// that could not be read.
    @Sendable func sync(_ request: Request, context: Context) async throws -> Response {
        StudioResponse.json(try Self.json(historyPath: document.historyPath))
    }

    static func json(historyPath: String?) throws(StudioError) -> [UInt8] {
        let status: SyncStatus?
        do { status = try StudioHistory.readOnly(historyPath)?.syncStatus() } catch {
            throw StudioError(.internalServerError, error.readingDiagnostic)
        }
        guard let status else { return Array(JSONValue.object([("member", .bool(false))]).text.utf8) }
        let this = status.settings.device
        let devices = status.devices.map { device in
            JSONValue.object([
                ("id", .string(device.id)), ("name", .string(device.name)), ("lastEvent", device.lastEvent.map { .string($0) } ?? .null),
                ("events", .int(device.events)), ("this", .bool(device.id == this)),
            ])
        }
        return Array(
            JSONValue.object([
                ("member", .bool(true)), ("folder", .string(status.settings.folder)),
                ("device", .object([("id", .string(this)), ("name", .string(status.settings.name))])),
                ("devices", .array(devices)), ("unwritten", .int(status.unwritten)),
                ("problems", .array(status.problems.map { .string($0) })),
                ("held", .array(status.held.map { .string($0.sentence) })),
            ]).text.utf8)
    }
}

/// Brings in what other devices wrote to the sync folder while the studio runs, as a command
/// does when it opens the history: once a second the history of a member is opened, which
/// reads the journals that changed (a `stat` per file when none did), and the pages hear of any
/// change through the history's own watch. A history that is no member is not opened again
/// until its file changes (a `sync init` while the studio runs): two `stat`s a second.
struct SyncWatch: Service {
    let document: StudioDocument
    var interval: Duration = .seconds(1)

    /// What the watch knows of the history: whether it was a member when its file (and its
    /// write-ahead log) last looked as they do now.
    struct Membership: Sendable {
        var member = false
        var identity: [FileIdentity?]?

        /// Whether the history must be opened: it is a member, or it changed since it was not.
        func needsLook(_ now: [FileIdentity?]) -> Bool { member || identity != now }
    }

    func run() async throws {
        // A service that returns ends the whole group: without a history, it waits for the end.
        guard let path = document.historyPath else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            var membership = Membership()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                _ = await Self.tick(path, document, &membership)
            }
        }
    }

    /// One second's look: the history is opened only when ``Membership/needsLook(_:)`` says
    /// so. True when it was opened.
    static func tick(_ path: String, _ document: StudioDocument, _ membership: inout Membership) async -> Bool {
        // Taken before the look: a change during it is seen by the next tick.
        let now = StudioDocument.identity(ofHistory: path)
        guard membership.needsLook(now) else { return false }
        membership = Membership(member: await readIn(path, document), identity: now)
        return true
    }

    /// One look at the folder: whatever arrived is in the history, and the pages are told.
    /// True when the history is a member of a sync folder.
    @discardableResult
    static func readIn(_ path: String, _ document: StudioDocument) async -> Bool {
        let member = (try? StudioHistory.readOnly(path)?.syncSettings()) != nil
        await document.reloadHistoryIfChanged()
        return member
    }
}
