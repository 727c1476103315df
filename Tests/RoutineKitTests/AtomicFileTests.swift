import Foundation
import RoutineKit
import Testing

/// The writer's promises that need no process: an edit saved between the read and the rename
/// is never lost, and a failed write leaves no temporary file behind.
struct AtomicFileTests {
    private func file(_ text: String) throws -> (URL, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("r.rt").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (dir, path)
    }

    @Test(arguments: [
        ("another size", "routine \"R\"\nhabit b \"Saved by an editor\"\n"),
        ("the same size", "routine \"R\"\nhabit a \"B\"\n"),
    ])
    func anEditSavedAfterTheReadIsKept(_ name: String, _ edit: String) throws {
        let (dir, path) = try file("routine \"R\"\nhabit a \"A\"\n")
        let identity = try #require(FileIdentity.of(path))
        // A later modification time even on a coarse clock.
        Thread.sleep(forTimeInterval: 0.01)
        try edit.write(toFile: path, atomically: false, encoding: .utf8)
        let result = AtomicFile.write(Array("formatted\n".utf8), to: path, purpose: .rewrite(expecting: identity))
        guard case .failure(let diagnostic) = result else {
            Issue.record("\(name): the rewrite went ahead over the edit")
            return
        }
        #expect(diagnostic.message.contains("it changed after it was read"), "\(name)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edit, "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r.rt"], "\(name)")
    }

    /// A new file only: written when absent, refused when present, and refused when a file of
    /// that name appears while it is being written (the other file is kept).
    @Test func aFileToCreateNeverReplacesOne() throws {
        let (dir, existing) = try file("mine\n")
        let fresh = dir.appendingPathComponent("r.yaml").path
        #expect(throws: Never.self) { try AtomicFile.write(Array("new\n".utf8), to: fresh, purpose: .create).get() }
        #expect(try String(contentsOfFile: fresh, encoding: .utf8) == "new\n")
        guard case .failure(let present) = AtomicFile.write(Array("x\n".utf8), to: existing, purpose: .create) else {
            Issue.record("an existing file was replaced")
            return
        }
        #expect(present.message.contains(AtomicFile.alreadyExists))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine\n")
        let racing = dir.appendingPathComponent("r.svg").path
        let result = AtomicFile.write(to: racing, purpose: .create) { fd in
            FileManager.default.createFile(atPath: racing, contents: Data("theirs\n".utf8))
            _ = "ours\n".utf8.withContiguousStorageIfAvailable { write(fd, $0.baseAddress, $0.count) }
            return nil
        }
        guard case .failure(let appeared) = result else {
            Issue.record("a file that appeared meanwhile was replaced")
            return
        }
        #expect(appeared.message.contains(AtomicFile.alreadyExists))
        #expect(try String(contentsOfFile: racing, encoding: .utf8) == "theirs\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["r.rt", "r.svg", "r.yaml"])
    }

    @Test func anUnchangedFileIsRewritten() throws {
        let (_, path) = try file("old\n")
        let identity = FileIdentity.of(path)
        let result = AtomicFile.write(Array("new\n".utf8), to: path, purpose: .rewrite(expecting: identity))
        #expect(throws: Never.self) { try result.get() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    @Test func aFailedProducerLeavesTheOldFileAndNoTemporary() throws {
        let (dir, path) = try file("old\n")
        let result = AtomicFile.write(to: path) { fd in
            _ = write(fd, "half", 4)
            return .unwritable(path, reason: "the producer failed")
        }
        #expect(throws: Diagnostic.self) { try result.get() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r.rt"])
    }
}
