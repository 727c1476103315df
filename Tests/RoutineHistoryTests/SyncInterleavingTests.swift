import Foundation
import RoutineHistory
import RoutineKit
import Testing

/// Three devices, each with its own copy of the sync folder, doing a seeded random sequence of
/// logs, runs, amendments, days off and their undo, deletions and restores, while journal files
/// travel between the copies in random order and at random moments, some cut in the middle of
/// a line and completed later. At the end every device has read everything: all exports are
/// the same, and equal to the export of one history that made the same changes in their order.
///
/// A change to a run or a day is made only by a device that holds what the single history
/// holds of it (it has received every earlier change of it): the merging rules order changes
/// by time, and the single history by their order, so the two agree on causally ordered
/// changes. Changes of different keys, and new logs and runs, are made on stale devices freely.
@Suite(.serialized)
struct SyncInterleavingTests {
    struct Device {
        let store: HistoryStore
        /// This device's copy of the sync folder, and its id there.
        let folder: String
        let id: String
    }

    /// A run deleted on `device`, kept (as the studio keeps it) to be put back there.
    struct Deletion {
        var device: Int
        var onDevice: DeletedRun
        var single: DeletedRun
    }

    static let dates = ["2026-11-23", "2026-11-24", "2026-11-25"]

    static func key(_ run: StoredRun) -> String { run.date + " " + run.startedAt.description }

    static func run(_ key: String, in store: HistoryStore) throws -> StoredRun? {
        let date = String(key.prefix(10))
        return try store.runs(RunFilter(since: date, until: date)).first { Self.key($0) == key }
    }

    /// The moment after everything done so far: each change is later than every event before
    /// it, as changes a person makes one after the other are. A bounded wait for the clock.
    static func nextMoment(after last: Timestamp) -> Timestamp {
        var now = Timestamp.now()
        for _ in 0..<100_000 where now <= last {
            usleep(50)
            now = .now()
        }
        return now
    }

    /// Copies what device `from` wrote into device `to`'s copy of the folder: a file whole, or
    /// cut anywhere past what the copy holds (a line half copied, completed by a later copy);
    /// replaced by a new file (as Syncthing does) or appended to in place.
    static func carry(_ devices: [Device], from: Int, to: Int, whole: Bool, _ random: inout SeededRandom) throws {
        guard from != to else { return }
        let source = devices[from].folder + "/" + devices[from].id
        let target = devices[to].folder + "/" + devices[from].id
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        guard !files.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for file in whole ? files : [files.randomElement(using: &random)!] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source + "/" + file))
            let path = target + "/" + file
            let held = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            guard held.count < bytes.count else { continue }
            let end = whole || Bool.random(using: &random) ? bytes.count : Int.random(in: held.count...bytes.count, using: &random)
            if !held.isEmpty, Bool.random(using: &random) {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: bytes[held.count..<end])
                try handle.close()
            } else {
                let temporary = target + "/.copy-" + file
                try bytes[0..<end].write(to: URL(fileURLWithPath: temporary))
                _ = rename(temporary, path)
            }
        }
    }

    @Test(arguments: 0..<20)
    func devicesInAnyInterleavingAgreeWithOneHistory(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let base = (try temporaryHistoryPath() as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: base) }
        var devices: [Device] = []
        for k in 0..<3 {
            let store = try #require(try HistoryStore.open(base + "/d\(k).sqlite", create: true))
            let folder = base + "/folder\(k)"
            _ = try store.joinSync(folder: folder, name: "d\(k)")
            devices.append(Device(store: store, folder: folder, id: try #require(try store.syncSettings()).device))
        }
        let single = try #require(try HistoryStore.open(base + "/single.sqlite", create: true))
        var deletions: [String: Deletion] = [:]
        var last = Timestamp.now()
        var done = 0
        var steps = 0

        /// The devices that hold of this run what the single history holds.
        func current(_ key: String) throws -> [Int] {
            let truth = try Self.run(key, in: single).map { HistoryJSON.encode($0).text }
            return try devices.indices.filter { try Self.run(key, in: devices[$0].store).map { HistoryJSON.encode($0).text } == truth }
        }
        func currentDay(_ date: CalendarDate) throws -> [Int] {
            let truth = try single.dayOff(of: morning.name, on: date)
            return try devices.indices.filter { try devices[$0].store.dayOff(of: morning.name, on: date) == truth }
        }

        while done < 200, steps < 2000 {
            steps += 1
            let action = Int.random(in: 0..<20, using: &random)
            if action < 6 {
                try Self.carry(
                    devices, from: Int.random(in: 0..<3, using: &random), to: Int.random(in: 0..<3, using: &random), whole: false, &random)
                continue
            }
            if action < 9 {
                _ = try devices.randomElement(using: &random)!.store.syncNow()
                continue
            }
            let date = CalendarDate(Self.dates.randomElement(using: &random)!)!
            let now = Self.nextMoment(after: last)
            defer { last = Timestamp.now() }
            switch action {
            case 9, 10:
                let device = devices.randomElement(using: &random)!
                let habit = ["water", "rest"].randomElement(using: &random)!
                let request = LogRequest(id: habit, skip: Bool.random(using: &random), force: true)
                guard case .success(let log) = try device.store.log(request, of: morning, on: date, path: "/r/test.rt", sourceHash: "h", now: now)
                else { continue }
                #expect(try single.insertRuns([log]) == 1, "seed \(seed)")
            case 11, 12:
                let device = devices.randomElement(using: &random)!
                let answer = Int.random(in: 0..<2, using: &random)
                let (_, id) = try recordRun(
                    device.store, morning, date: date.description,
                    decisions: [.decision(.done(value: nil)), .decision(.option(answer)), .decision(.skip)], end: .quit)
                #expect(try single.insertRuns([try #require(try device.store.run(id: id))]) == 1, "seed \(seed)")
            case 13, 14:
                guard let target = try single.runs(RunFilter()).randomElement(using: &random),
                    let k = try current(Self.key(target)).randomElement(using: &random),
                    let local = try Self.run(Self.key(target), in: devices[k].store)
                else { continue }
                let habits = target.steps.filter { $0.decision.kind == .habit }.map(\.decision.step)
                guard let number = habits.randomElement(using: &random) else { continue }
                let change = AmendChange(
                    result: Bool.random(using: &random) ? .done : .skipped, seconds: Double(Int.random(in: 1...99, using: &random)))
                let there = try devices[k].store.amendStep(number, of: local.id!, to: change, now: now)
                let here = try single.amendStep(number, of: target.id!, to: change, now: now)
                #expect((try? there?.get()) != nil && (try? here?.get()) != nil, "seed \(seed): an amendment refused")
            case 15:
                guard let target = try single.runs(RunFilter()).randomElement(using: &random),
                    let k = try current(Self.key(target)).randomElement(using: &random),
                    let local = try Self.run(Self.key(target), in: devices[k].store)
                else { continue }
                let onDevice = try #require(try devices[k].store.deleteRun(id: local.id!))
                let inSingle = try #require(try single.deleteRun(id: target.id!))
                deletions[Self.key(target)] = Deletion(device: k, onDevice: onDevice, single: inSingle)
            case 16:
                guard let (key, deletion) = deletions.sorted(by: { $0.key < $1.key }).randomElement(using: &random),
                    try current(key).contains(deletion.device)
                else { continue }
                #expect(try devices[deletion.device].store.restore(deletion.onDevice).get() > 0, "seed \(seed)")
                #expect(try single.restore(deletion.single).get() > 0, "seed \(seed)")
                deletions[key] = nil
            case 17, 18:
                guard let k = try currentDay(date).randomElement(using: &random) else { continue }
                let day = DayOff(routine: morning.name, date: date, reason: "r\(Int.random(in: 0..<9, using: &random))", recordedAt: now)
                if try single.dayOff(of: morning.name, on: date) != nil { continue }
                #expect(try devices[k].store.insertDaysOff([day]) == 1, "seed \(seed)")
                #expect(try single.insertDaysOff([day]) == 1, "seed \(seed)")
            default:
                guard try single.dayOff(of: morning.name, on: date) != nil, let k = try currentDay(date).randomElement(using: &random) else {
                    continue
                }
                #expect(try devices[k].store.deleteDaysOff(of: morning.name, from: date, through: date) == 1, "seed \(seed)")
                #expect(try single.deleteDaysOff(of: morning.name, from: date, through: date) == 1, "seed \(seed)")
            }
            done += 1
        }
        #expect(done == 200, "seed \(seed): only \(done) changes in \(steps) steps")

        // Everything reaches everyone; each reads until nothing new comes in.
        for from in 0..<3 { for to in 0..<3 where to != from { try Self.carry(devices, from: from, to: to, whole: true, &random) } }
        for _ in 0..<4 {
            let arrived = try devices.reduce(0) { count, device in count + (try device.store.syncNow().arrivals.filter { !$0.isEmpty }.count) }
            if arrived == 0 { break }
        }
        let expected = try SyncMergeTests.export(single)
        for (k, device) in devices.enumerated() {
            let export = try SyncMergeTests.export(device.store)
            #expect(export == expected, "seed \(seed): device \(k) differs from the single history")
            #expect(try device.store.syncStatus()?.problems == [], "seed \(seed)")
        }
    }
}
