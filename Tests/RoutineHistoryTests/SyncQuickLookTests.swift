import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

#if canImport(Glibc)
import Glibc
#endif

/// What a command that opens the history notices of the other devices' journals without
/// listing them (docs/sync.md, "When"): each way an engine brings a line, and the one it
/// leaves to `routine sync`.
@Suite(.serialized)
struct SyncQuickLookTests {
    /// How the last line of the laptop's journal reaches the desk's copy of the folder.
    enum Arrival: String, CaseIterable {
        /// Appended in place to the newest month (rsync --inplace, cp onto the file).
        case newestGrowsInPlace
        /// In a new month's file: the device folder changes.
        case newMonth
        /// The newest month replaced by a rename, as Syncthing and git do.
        case replaced
        /// The rest of a line an older month ended in, appended in place.
        case cutLineCompleted
        /// The first files of a device not seen before: the sync folder changes.
        case newDevice
    }

    struct Setup {
        let laptop: HistoryStore
        let deskPath: String
        let desk: HistoryStore
        /// The desk's copy of the folder, and the laptop's folder in it.
        let folder: String
        let laptopFolder: String
        let lines: [String]

        init() throws {
            let laptopPath = try temporaryHistoryPath()
            laptop = try #require(try HistoryStore.open(laptopPath, create: true))
            let own = (laptopPath as NSString).deletingLastPathComponent + "/laptop-folder"
            _ = try laptop.joinSync(folder: own, name: "laptop")
            try recordRun(laptop, morning, decisions: [.decision(.done(value: nil)), .decision(.option(0))], end: .quit)
            let id = try #require(try laptop.syncSettings()).device
            let journal = try #require(try FileManager.default.contentsOfDirectory(atPath: own + "/" + id).first)
            lines = try String(contentsOfFile: own + "/" + id + "/" + journal, encoding: .utf8).split(separator: "\n").map { $0 + "\n" }
            deskPath = try temporaryHistoryPath()
            desk = try #require(try HistoryStore.open(deskPath, create: true))
            folder = (deskPath as NSString).deletingLastPathComponent + "/desk-folder"
            _ = try desk.joinSync(folder: folder, name: "desk")
            laptopFolder = folder + "/" + id
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: laptopFolder + "/" + name))
        }

        func append(_ name: String, _ text: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: laptopFolder + "/" + name))
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
        }

        /// Everything but the last line, in two months; or, for a cut line, with the first
        /// half of the last line at the end of the older month.
        func base(cut: Bool) throws {
            let half = lines.count / 2
            let last = lines[lines.count - 1]
            try FileManager.default.createDirectory(atPath: laptopFolder, withIntermediateDirectories: false)
            try write("2026-10.jsonl", lines[..<half].joined() + (cut ? String(last.prefix(last.count / 2)) : ""))
            try write("2026-11.jsonl", lines[half..<(lines.count - 1)].joined())
        }

        func export(_ store: HistoryStore) throws -> String {
            try SyncMergeTests.export(store)
        }

        /// A look whose folder states are known: the coarse clock has passed every folder's
        /// change time, so none is recorded as unknown (bounded wait).
        func settle() throws {
            var info = stat()
            for path in [folder, laptopFolder] where stat(path, &info) == 0 {
                let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
                var now = timespec()
                for _ in 0..<10_000 {
                    clock_gettime(CLOCK_REALTIME_COARSE, &now)
                    if Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) > changed { break }
                    usleep(200)
                }
            }
            _ = try desk.syncNow()
        }
    }

    @Test(arguments: Arrival.allCases)
    func aLineThatArrivesIsReadByTheNextCommand(arrival: Arrival) throws {
        let s = try Setup()
        let last = s.lines[s.lines.count - 1]
        if arrival != .newDevice { try s.base(cut: arrival == .cutLineCompleted) }
        try s.settle()
        let settings = try #require(try s.desk.syncSettings())
        #expect(!s.desk.folderMayHaveNews(settings))
        let before = try s.export(s.desk)
        #expect(before != (try s.export(s.laptop)))
        switch arrival {
        case .newestGrowsInPlace: try s.append("2026-11.jsonl", last)
        case .newMonth: try s.write("2026-12.jsonl", last)
        case .replaced:
            try s.write(".tmp", s.lines[(s.lines.count / 2)...].joined())
            #expect(rename(s.laptopFolder + "/.tmp", s.laptopFolder + "/2026-11.jsonl") == 0)
        case .cutLineCompleted: try s.append("2026-10.jsonl", String(last.dropFirst(last.count / 2)))
        case .newDevice:
            try FileManager.default.createDirectory(atPath: s.laptopFolder, withIntermediateDirectories: false)
            try s.write("2026-11.jsonl", s.lines.joined())
        }
        #expect(s.desk.folderMayHaveNews(settings))
        // Another command opening the desk's history reads it.
        let next = try #require(try HistoryStore.open(s.deskPath, create: false))
        #expect(try s.export(next) == (try s.export(s.laptop)))
        #expect(!next.folderMayHaveNews(settings))
    }

    /// An older, complete month that grows in place (no engine this project knows writes so)
    /// is not looked at by every command: `routine sync` looks at every file.
    @Test func anOlderMonthGrownInPlaceIsReadByASync() throws {
        let s = try Setup()
        try s.base(cut: false)
        try s.settle()
        let settings = try #require(try s.desk.syncSettings())
        try s.append("2026-10.jsonl", s.lines[s.lines.count - 1])
        #expect(!s.desk.folderMayHaveNews(settings))
        _ = try s.desk.syncNow()
        #expect(try s.export(s.desk) == (try s.export(s.laptop)))
    }
}
