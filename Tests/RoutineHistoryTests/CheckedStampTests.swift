import Foundation
import Testing

@testable import RoutineHistory

#if canImport(Glibc)
import Glibc
#endif

/// A writer that closes a sound history cleanly stamps it, and the next writer skips the
/// whole-file check only while the files are exactly as the stamp names them.
struct CheckedStampTests {
    /// A history of 20 runs, closed by the writer that recorded them.
    static func stampedHistory() throws -> String {
        let path = try temporaryHistoryPath()
        let store = try #require(try HistoryStore.open(path, create: true))
        for day in 1...20 {
            try recordRun(store, morning, date: "2026-11-\(day + 9)", decisions: [.decision(.done(value: nil))], end: .quit)
        }
        return path
    }

    static func modified(_ path: String) throws -> timespec {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return info.st_mtim
    }

    /// Sets the file's modification time back to `time` (the status-change time becomes now).
    static func setModified(_ path: String, _ time: timespec) throws {
        let times = [time, time]
        try #require(utimensat(AT_FDCWD, path, times, 0) == 0)
    }

    /// Overwrites the root page of the run table, keeping the file's size.
    static func overwriteRunRoot(_ path: String) throws {
        let queue = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        let root = try #require(try queue.read { try Int.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'run'") })
        try queue.close()
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64((root - 1) * 4096))
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
    }

    struct Change: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (String) throws -> Void
        /// Whether the change damages the file (a writer refuses it) or only makes it unknown.
        let damages: Bool
        var testDescription: String { name }
    }

    static let changes: [Change] = [
        Change(name: "a page overwritten", make: { try overwriteRunRoot($0) }, damages: true),
        Change(
            name: "a page overwritten, the modification time set back",
            make: { path in
                let before = try modified(path)
                try overwriteRunRoot(path)
                try setModified(path, before)
                #expect(try modified(path).tv_sec == before.tv_sec && modified(path).tv_nsec == before.tv_nsec)
            }, damages: true),
        Change(
            name: "a run added by another program",
            make: { path in
                let queue = try DatabaseQueue(path: path)
                try queue.write { try $0.execute(sql: "UPDATE run SET path = path || '.moved' WHERE id = 3") }
                try queue.close()
            }, damages: false),
        Change(
            name: "the history replaced by a copy of itself",
            make: { path in
                try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
                try #require(rename(path + ".copy", path) == 0)
            }, damages: false),
        Change(name: "a stamp others may write", make: { try #require(chmod(CheckedStamp.path(of: $0), 0o622) == 0) }, damages: false),
        Change(name: "no stamp", make: { try FileManager.default.removeItem(atPath: CheckedStamp.path(of: $0)) }, damages: false),
    ]

    @Test func aCleanCloseStampsTheFileAndTheNextWriterSkipsTheCheck() throws {
        let path = try Self.stampedHistory()
        let mode = try FileManager.default.attributesOfItem(atPath: CheckedStamp.path(of: path))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let second = try #require(try HistoryStore.open(path, create: false))
        #expect(!second.flags.checkedWhole)
        #expect(try second.runCount() == 20)
        // A reader neither checks nor stamps.
        let stamp = try Data(contentsOf: URL(fileURLWithPath: CheckedStamp.path(of: path)))
        #expect(try HistoryStore.open(path, create: false, readOnly: true)?.flags.checkedWhole == false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: CheckedStamp.path(of: path))) == stamp)
    }

    @Test(arguments: changes)
    func aChangeTheStampDoesNotNameIsCheckedWhole(_ change: Change) throws {
        let path = try Self.stampedHistory()
        #expect(try HistoryStore.open(path, create: false)?.flags.checkedWhole == false)
        try change.make(path)
        if change.damages {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let stamp = try Data(contentsOf: URL(fileURLWithPath: CheckedStamp.path(of: path)))
            let error = #expect(throws: HistoryError.self) { try HistoryStore.open(path, create: false) }
            if case .damaged = error {} else { Issue.record("\(change.name): \(String(describing: error))") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(change.name): the damaged file was written")
            #expect(try Data(contentsOf: URL(fileURLWithPath: CheckedStamp.path(of: path))) == stamp, "\(change.name): restamped")
        } else {
            #expect(try HistoryStore.open(path, create: false)?.flags.checkedWhole == true, "\(change.name)")
            // Checked sound and closed: stamped again.
            #expect(try HistoryStore.open(path, create: false)?.flags.checkedWhole == false, "\(change.name)")
        }
    }
}
