import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

/// The sync's tables of a history made by an earlier version, brought up to date by the
/// first command that syncs.
@Suite(.serialized)
struct SyncSchemaTests {
    /// The first command after the update: a plain sync, or a recording that writes its event.
    enum FirstCommand: String, CaseIterable {
        case sync
        case record
    }

    /// A history that joined before the index of the events by device existed gets it, and
    /// the check of the own folder finds this device's events through it rather than by
    /// scanning every event of every device.
    @Test(arguments: FirstCommand.allCases)
    func oldHistoryGetsTheIndexOfEventsByDevice(_ first: FirstCommand) throws {
        let path = try temporaryHistoryPath()
        let folder = (path as NSString).deletingLastPathComponent + "/folder"
        do {
            let store = try #require(try HistoryStore.open(path, create: true))
            _ = try store.joinSync(folder: folder, name: "laptop")
            try recordRun(store, morning, decisions: [.decision(.done(value: nil)), .decision(.option(0))], end: .quit)
            // As an earlier version left it.
            try store.writeWithoutSync { db in try db.execute(sql: "DROP INDEX syncEvent_by_device") }
            #expect(try !store.read { db in try Self.hasIndex(db) })
        }
        let store = try #require(try HistoryStore.open(path, create: false))
        switch first {
        case .sync: _ = try store.syncNow()
        case .record: try recordRun(store, morning, decisions: [.decision(.done(value: nil)), .decision(.option(1))], end: .quit)
        }
        #expect(try store.read { db in try Self.hasIndex(db) })
        let device = try #require(try store.syncSettings()).device
        let plan = try store.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT 1 FROM syncEvent WHERE device = ? AND written = 1 LIMIT 1", arguments: [device]
            ).map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("syncEvent_by_device"), "\(plan)")
    }

    static func hasIndex(_ db: Database) throws -> Bool {
        try db.hasRow("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'syncEvent_by_device'")
    }
}
