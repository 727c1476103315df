import Foundation
import RoutineHistory
import RoutineKit
import Testing

/// A run deleted and put back (the studio's delete and its undo): the same rows, the same ids
/// when they are free, and the export unchanged either way.
struct DeletionTests {
    static func export(_ store: HistoryStore) throws -> String {
        try store.runs(RunFilter(oldestFirst: true)).map { HistoryJSON.encode($0).text + "\n" }.joined()
    }

    static func amended(_ store: HistoryStore, on date: String = "2026-11-23") throws -> Int64 {
        let (_, id) = try recordRun(
            store, morning, date: date, decisions: [.decision(.done(value: nil)), .decision(.option(0)), .decision(.skip)], end: .quit)
        #expect(try store.amendStep(1, of: id, to: AmendChange(result: .skipped)) != nil)
        #expect(try store.amendStep(3, of: id, to: AmendChange(result: .done)) != nil)
        return id
    }

    @Test func aDeletedRunComesBackWithItsIDs() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        _ = try Self.amended(store, on: "2026-11-22")
        let id = try Self.amended(store)
        let before = try Self.export(store)
        let deleted = try #require(try store.deleteRun(id: id))
        #expect(deleted.run.steps.count == 3)
        #expect(deleted.run.amendments.count == 2)
        #expect(try store.run(id: id) == nil)
        #expect(try store.deleteRun(id: id) == nil)
        #expect(try store.restore(deleted) == .success(id))
        #expect(try Self.export(store) == before)
        // Undone newest first, as before the delete.
        #expect(try store.undoAmendment(of: "Morning")?.step.decision.step == 3)
    }

    @Test func takenIDsAreGivenNewOnesInTheSameOrder() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let id = try Self.amended(store)
        let deleted = try #require(try store.deleteRun(id: id))
        // The newest run's id and its amendments' ids are free again: a new log and a new
        // amendment take them.
        let request = LogRequest(id: "drink", skip: false, value: 8, seconds: nil, force: false)
        let date = try #require(CalendarDate("2026-11-24"))
        guard case .success(let log) = try store.log(request, of: morning, on: date, path: "/r/test.rt", sourceHash: "x") else {
            Issue.record("the log was refused")
            return
        }
        #expect(log.id == id)
        #expect(try store.amendStep(1, of: id, to: AmendChange(result: .skipped)) != nil)
        let restored = try store.restore(deleted)
        guard case .success(let back) = restored else {
            Issue.record("not put back: \(restored)")
            return
        }
        #expect(back != id)
        let run = try #require(try store.run(id: back))
        #expect(run.steps == deleted.run.steps)
        #expect(run.amendments == deleted.run.amendments)
        // The amendment rows stay in the order they were made.
        #expect(try store.undoAmendment(of: "Morning")?.runID == back)
    }

    @Test func aRunWhoseStartIsTakenAgainIsNotPutBack() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let id = try Self.amended(store)
        let deleted = try #require(try store.deleteRun(id: id))
        #expect(try store.insertRuns([deleted.run]) == 1)
        let before = try Self.export(store)
        #expect(try store.restore(deleted) == .failure(.startTaken))
        #expect(try Self.export(store) == before)
    }
}
