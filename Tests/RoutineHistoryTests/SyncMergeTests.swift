import Foundation
import RoutineHistory
import RoutineKit
import Testing

/// The merging rules of docs/sync.md, two devices sharing one folder.
@Suite(.serialized)
struct SyncMergeTests {
    struct Pair {
        let folder: String
        let a: HistoryStore
        let b: HistoryStore

        init() throws {
            let pathA = try temporaryHistoryPath()
            folder = (pathA as NSString).deletingLastPathComponent + "/shared"
            a = try #require(try HistoryStore.open(pathA, create: true))
            b = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        }

        func join() throws {
            _ = try a.joinSync(folder: folder, name: "a")
            _ = try b.joinSync(folder: folder, name: "b")
            _ = try a.syncNow()
        }

        /// Both devices read each other until nothing new comes in (at most three rounds).
        func exchange() throws {
            for _ in 0..<3 {
                let arrived = try a.syncNow().arrivals.filter { !$0.isEmpty }.count + (try b.syncNow().arrivals.filter { !$0.isEmpty }.count)
                if arrived == 0 { return }
            }
        }

        func run(_ store: HistoryStore, on date: String = "2026-11-23") throws -> StoredRun? {
            try store.runs(RunFilter(oldestFirst: true)).first { $0.date == date }
        }
    }

    static func export(_ store: HistoryStore) throws -> String {
        try store.runs(RunFilter(oldestFirst: true)).map { HistoryJSON.encode($0).text + "\n" }.joined()
            + store.daysOff().map { HistoryJSON.encode($0).text + "\n" }.joined()
    }

    @Test func deletionWinsOverAnAmendmentAndARestoreBringsItBack() throws {
        let p = try Pair()
        let (_, idA) = try recordRun(p.a, morning, decisions: [.decision(.done(value: nil)), .decision(.option(0)), .decision(.skip)], end: .quit)
        try p.join()
        let idB = try #require(try p.run(p.b)?.id)
        let deleted = try #require(try p.a.deleteRun(id: idA))
        #expect(try p.b.amendStep(1, of: idB, to: AmendChange(result: .skipped)) != nil)
        try p.exchange()
        #expect(try p.run(p.a) == nil)
        #expect(try p.run(p.b) == nil)
        #expect(try p.a.restore(deleted) == .success(idA))
        try p.exchange()
        let restored = try #require(try p.run(p.a))
        #expect(restored.steps[0].decision.result == .skipped)
        #expect(restored.amendments.count == 1)
        #expect(try Self.export(p.b) == (try Self.export(p.a)))
    }

    @Test func theLaterAmendmentWinsAndBothAreKept() throws {
        let p = try Pair()
        let (_, idA) = try recordRun(p.a, morning, decisions: [.decision(.done(value: nil)), .decision(.option(0)), .decision(.skip)], end: .quit)
        try p.join()
        let idB = try #require(try p.run(p.b)?.id)
        #expect(try p.a.amendStep(1, of: idA, to: AmendChange(result: .skipped)) != nil)
        // B has not read A's amendment yet: the two are concurrent; B's is the later.
        #expect(try p.b.amendStep(1, of: idB, to: AmendChange(result: .done, seconds: 4)) != nil)
        try p.exchange()
        let merged = try #require(try p.run(p.a))
        #expect(merged.steps[0].decision.result == .done)
        #expect(merged.steps[0].seconds == 4)
        #expect(merged.amendments.count == 2)
        #expect(try Self.export(p.b) == (try Self.export(p.a)))
    }

    @Test func runsOfOneDayOnTwoDevicesAreBothKeptAndImportingTwiceChangesNothing() throws {
        let p = try Pair()
        try p.join()
        try recordRun(p.a, morning, decisions: [.decision(.done(value: nil))], end: .quit)
        try recordRun(p.b, morning, decisions: [.decision(.skip)], end: .quit)
        try p.exchange()
        #expect(try p.a.runs(RunFilter()).count == 2)
        let before = try Self.export(p.a)
        #expect(try Self.export(p.b) == before)
        // Every journal file copied once more beside itself: nothing changes.
        for device in try FileManager.default.contentsOfDirectory(atPath: p.folder) {
            for file in try FileManager.default.contentsOfDirectory(atPath: p.folder + "/" + device) {
                let path = p.folder + "/" + device + "/" + file
                try FileManager.default.copyItem(atPath: path, toPath: path.replacingOccurrences(of: ".jsonl", with: " (copy).jsonl"))
            }
        }
        try p.exchange()
        #expect(try Self.export(p.a) == before)
        #expect(try Self.export(p.b) == before)
    }

    /// A run of one step a day for 100 days from `first`, the step's title made by `title`.
    static func dailyRuns(from first: CalendarDate, title: (Int) -> String) -> [StoredRun] {
        (0..<100).map { k in
            let day = first.adding(days: k)
            let at = Timestamp(milliseconds: Int64(day.dayNumber) * 86_400_000 + 25_200_000)
            let step = StoredStep(
                decision: RecordedStep(step: 1, node: "stretch", kind: .habit, result: .done), title: title(k), decidedAt: at, seconds: 3)
            return StoredRun(
                routine: "Morning", path: "/r/test.rt", sourceHash: "h", date: day.description, startedAt: at, utcOffset: 0,
                endedAt: at, result: .completed, reachedEnd: true, steps: [step])
        }
    }

    /// A reading of more keys than `SyncSchema.bulkKeys` (64) applies them with the triggers
    /// set aside; afterwards both devices record and send their changes as before.
    @Test func aLargeReadingKeepsTheTriggers() throws {
        let p = try Pair()
        let first = try #require(CalendarDate("2026-01-01"))
        let runs = Self.dailyRuns(from: first) { _ in "Stretch" }
        #expect(try p.a.insertRuns(runs) == 100)
        try p.a.insertDaysOff((0..<70).map { DayOff(routine: "Morning", date: first.adding(days: 200 + $0), reason: "away", recordedAt: .now()) })
        try p.join()
        #expect(try Self.export(p.b) == (try Self.export(p.a)))
        #expect(try p.b.runs(RunFilter()).count == 100)
        // Each device's own changes still reach the other.
        try recordRun(p.b, morning, date: "2026-11-23", decisions: [.decision(.done(value: nil))], end: .quit)
        let idA = try #require(try p.a.runs(RunFilter(oldestFirst: true)).first?.id)
        #expect(try p.a.amendStep(1, of: idA, to: AmendChange(result: .skipped)) != nil)
        try p.exchange()
        #expect(try p.a.runs(RunFilter()).count == 101)
        #expect(try p.b.runs(RunFilter(oldestFirst: true)).first?.steps[0].decision.result == .skipped)
        #expect(try Self.export(p.b) == (try Self.export(p.a)))
    }

    /// A reading of more than a megabyte parses its files on two threads before its
    /// transaction: texts with escapes and without, a bad line and a line not yet whole are
    /// read as a reading of one file on one thread reads them.
    @Test func aLargeReadingIsParsedAhead() throws {
        let p = try Pair()
        let runs = Self.dailyRuns(from: try #require(CalendarDate("2025-01-01"))) { k in
            String(repeating: k % 3 == 0 ? "Stretch \"slowly\" " : "Stretch slowly ", count: 800)
        }
        #expect(try p.a.insertRuns(runs) == 100)
        _ = try p.a.joinSync(folder: p.folder, name: "a")
        let device = try #require(try p.a.syncSettings()?.device)
        let journal = try #require(try FileManager.default.contentsOfDirectory(atPath: p.folder + "/" + device).first)
        let path = p.folder + "/" + device + "/" + journal
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n{\"v\":1".utf8))
        try handle.close()
        #expect(try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) > 1 << 20)
        let report = try p.b.joinSync(folder: p.folder, name: "b")
        #expect(report.problems.map(\.message) == ["'\(path)' line 102: not JSON; the line is skipped"])
        #expect(try p.b.runs(RunFilter()).count == 100)
        #expect(try Self.export(p.b) == (try Self.export(p.a)))
    }

    @Test func aDayOffAndItsUndoTravel() throws {
        let p = try Pair()
        try p.join()
        let day = try #require(CalendarDate("2026-11-24"))
        try p.a.insertDaysOff([DayOff(routine: "Morning", date: day, reason: "ill", recordedAt: .now())])
        try p.exchange()
        #expect(try p.b.dayOff(of: "Morning", on: day)?.reason == "ill")
        try p.b.deleteDaysOff(of: "Morning", from: day, through: day)
        try p.exchange()
        #expect(try p.a.dayOff(of: "Morning", on: day) == nil)
    }
}
