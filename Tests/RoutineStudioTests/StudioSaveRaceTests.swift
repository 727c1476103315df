import Foundation
import Testing

@testable import RoutineKit
@testable import RoutineStudio

/// Another program's write that lands just after the studio's rename, while the folder is
/// flushed, is a change the studio sees: shown on the page, and never written over.
@Suite struct StudioSaveRaceTests {
    static let routine = "routine \"R\"\nhabit a \"A\" -> b\nhabit b \"B\"\n"

    /// The studio's writer, then another writer appending a line in the moment before the
    /// writer returns: where a slow folder flush leaves room for an editor's save.
    static func appendingAfterEachWrite(_ count: SharedCounter) -> StudioDocument.Writer {
        { bytes, path, purpose in
            let result = StudioDocument.write(bytes, to: path, purpose: purpose)
            let line = Array("# saved elsewhere \(count.next())\n".utf8)
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            if fd >= 0 {
                _ = line.withUnsafeBufferPointer { writeFully(fd, $0) }
                close(fd)
            }
            return result
        }
    }

    @Test func noLineAppendedInTheWriteWindowIsLost() async throws {
        let appended = SharedCounter()
        try await StudioFixture.with(Self.routine, writer: Self.appendingAfterEachWrite(appended)) { studio in
            var edits = 0
            for round in 0..<40 where edits < 12 {
                let title = round % 2 == 0 ? "A" : "Another"
                let answer = await studio.post(
                    "{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"a\", \"title\": \"\(title)\"}")
                #expect([200, 409].contains(answer.status), "\(answer.body)")
                if answer.status == 200 { edits += 1 }
            }
            #expect(edits == 12)
            let text = studio.text
            for n in 0..<appended.value { #expect(text.contains("# saved elsewhere \(n)\n"), "line \(n) lost:\n\(text)") }
            #expect(appended.value == edits)
            // The last append is on the page too, without any edit after it.
            var shown = false
            for _ in 0..<100 where !shown {
                shown = ((try? await studio.state())?["source"] as? String)?.contains("# saved elsewhere \(edits - 1)\n") == true
                if !shown { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(shown)
        }
    }
}

/// A counter several threads share.
final class SharedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
