import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

#if canImport(Glibc)
import Glibc
#endif

/// The hybrid logical clock's stamps, and the reading of lines rather than offsets
/// (docs/sync.md, "Order by cause" and "Read lines, not offsets").
struct SyncClockTests {
    static let now = Timestamp(milliseconds: 1_800_000_000_000)

    /// (newest stamp seen, relative to now in ms, or nil; the stamp's distance from now)
    @Test(
        arguments: [
            (nil, 0),  // nothing seen: the wall clock
            (-5_000, 0),  // an older stamp seen: the wall clock
            (0, 1),  // a stamp of this very millisecond: one tick after it
            (3_600_000, 3_600_001),  // a device an hour ahead seen: after it, whatever this clock says
        ] as [(Int64?, Int64)])
    func aStampFollowsTheNewestSeen(_ newest: Int64?, _ expected: Int64) {
        let seen = newest.map { Timestamp(milliseconds: Self.now.milliseconds + $0) }
        #expect(SyncClock.stamp(after: seen, now: Self.now).milliseconds == Self.now.milliseconds + expected)
    }

    @Test func theHorizonIsADayAhead() {
        #expect(SyncClock.horizon(Self.now).milliseconds - Self.now.milliseconds == 86_400_000)
    }

    /// A file read to some point, then changed: whether the next reading starts again from
    /// the file's start (what was before the point changed) or goes on from the point.
    /// A long first part: its hash is streamed through a buffer in pieces, and the point read
    /// falls inside a word of eight bytes.
    static let long = (0..<40_000).map { "line \($0)\n" }.joined() + "odd\n"

    @Test(arguments: [
        ("a\nb\n", "a\nb\nc\n", false, false, ["c"]),  // grown in place: only the new line
        ("a\nb\n", "a\nb\nc\n", true, false, ["c"]),  // replaced by a longer copy (Syncthing, git): only the new line
        ("a\njunk\n", "a\nc\n", false, true, ["a", "c"]),  // a line taken out, another added: all again
        ("a\nb\n", "a\nB\nc\n", false, true, ["a", "B", "c"]),  // a line edited by hand
        ("a\nb\n", "a\nB\nc\n", true, true, ["a", "B", "c"]),  // replaced by a copy edited by hand
        ("a\nb\n", "a\nb", false, true, ["a"]),  // shorter: from the start
        (long, long + "c\n", false, false, ["c"]),
        (long, long + "c\n", true, false, ["c"]),
        (long, long.replacingOccurrences(of: "line 39999", with: "line 39998") + "c\n", false, true, []),
        (long, "x" + long.dropFirst() + "c\n", true, true, []),
    ])
    func aFileChangedBeforeThePointReadIsReadAgain(
        _ first: String, _ then: String, _ replaced: Bool, _ again: Bool, _ lines: [String]
    ) throws {
        let folder = URL(fileURLWithPath: (try temporaryHistoryPath() as NSString).deletingLastPathComponent)
        let device = String(repeating: "ab", count: 16)
        try FileManager.default.createDirectory(atPath: folder.path + "/" + device, withIntermediateDirectories: false)
        let path = device + "/2026-11.jsonl"
        func state() -> SyncJournal.FileState {
            let info = SyncJournal.kind(folder.path + "/" + path)
            return SyncJournal.FileState(path: path, inode: info?.inode ?? 0, size: info?.size ?? 0)
        }
        try first.write(toFile: folder.path + "/" + path, atomically: false, encoding: .utf8)
        let read = JournalLines.read(state(), from: JournalLines.Start(offset: 0, line: 0), folder.path)
        let inode = state().inode
        try then.write(toFile: folder.path + "/" + path, atomically: replaced, encoding: .utf8)
        let file = state()
        #expect((file.inode != inode) == replaced)
        let start = JournalLines.start(of: file, recorded: (read.end, read.linesRead, read.prefix))
        let next = JournalLines.read(file, from: start, folder.path)
        #expect((next.start.offset == 0) == again)
        // Each line here is no event: its number tells which lines were read.
        let all = then.split(separator: "\n", omittingEmptySubsequences: false)
        if !lines.isEmpty { #expect(next.lines.map { String(all[$0.0 - 1]) } == lines) }
        #expect(next.lines.count == (again ? all.count - 1 : lines.count))
        // What the next reading checks: the hash of every whole line read, from the start.
        let whole = Array(then.utf8)
        #expect(next.prefix == JournalLines.hash(whole[0..<Int(next.end)]))
        #expect(next.end == Int64(whole.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0))
    }
}
