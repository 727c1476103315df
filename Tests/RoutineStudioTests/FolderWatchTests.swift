import Foundation
import Testing

@testable import RoutineStudio

/// The folder watch that tells the studio of a save at once: a write finished and a rename
/// over the file are heard; other files in the folder are not.
struct FolderWatchTests {
    /// Counts the calls, safely from the watch's own queue.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }

        /// Waits up to two seconds for more than `than` calls.
        func more(than: Int) async -> Bool {
            for _ in 0..<200 {
                if value > than { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    @Test func writesAndRenamesOfTheFileAreHeardAndOthersNot() async throws {
        #if os(Linux)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("routine.rt").path
        try "routine \"A\"\n".write(toFile: file, atomically: false, encoding: .utf8)
        let calls = Calls()
        let watch = try #require(FolderWatch(path: file) { calls.add() })
        // The file's own creation may still be reported on a loaded machine: count from here.
        try await Task.sleep(for: .milliseconds(300))
        let before = calls.value
        // Another file in the folder: not this routine's business.
        try "x".write(toFile: folder.appendingPathComponent("other.rt").path, atomically: false, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.value == before)
        // Written in place, then replaced by a rename (as `atomically: true` does).
        try "routine \"B\"\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(await calls.more(than: before))
        let seen = calls.value
        try "routine \"C\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(await calls.more(than: seen))
        withExtendedLifetime(watch) {}
        #endif
    }
}
