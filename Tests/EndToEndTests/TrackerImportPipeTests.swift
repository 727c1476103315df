import Foundation
import Testing

/// An export's file that is not a regular file is refused, never waited on: a named pipe
/// with no writer would block the import forever.
@Suite(.serialized)
struct TrackerImportPipeTests {
    struct PipeCase: CustomTestStringConvertible, Sendable {
        var tracker: String
        /// The file of the export made a named pipe.
        var file: String
        var testDescription: String { "\(tracker): \(file)" }
    }

    static let pipes = [
        PipeCase(tracker: "harsh", file: "log"), PipeCase(tracker: "harsh", file: "habits"), PipeCase(tracker: "loop", file: "Habits.csv"),
        PipeCase(tracker: "loop", file: "Checkmarks.csv"), PipeCase(tracker: "loop", file: "001 Meditate/Checkmarks.csv"),
    ]

    /// A named pipe in an export's place is refused at once, as `check` refuses one (E013's
    /// words), with nothing written. `timeout` only ends the process if it waits on the pipe.
    @Test(arguments: pipes)
    func aNamedPipeIsRefusedNotWaitedOn(_ c: PipeCase) throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("export")
        if c.tracker == "harsh" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("Meditated: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
            try Data("2024-03-01 : Meditated : y\n".utf8).write(to: folder.appendingPathComponent("log"))
        } else {
            try LoopCSVImportTests.export.write(to: folder)
        }
        let fifo = folder.appendingPathComponent(c.file).path
        try FileManager.default.removeItem(atPath: fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try shell(
            "timeout 120 \"$ROUTINE\" history import --from \(c.tracker) export --routine out.rt --history '\(history)'", in: dir)
        #expect(result.status == 1, "\(c.file): exit \(result.status) \(result.stderr)")
        #expect(
            result.stderr.contains("error[E030]: cannot import '") && result.stderr.contains("is a named pipe, not a regular file"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.rt").path))
        #expect(try execute(["history", "export", "--history", history]).stdout == "")
    }

    /// `history import FILE` (JSON Lines) refuses a named pipe given by name at once, in
    /// E013's words, and writes nothing. `timeout` only ends the process if it waits on the pipe.
    @Test func aNamedPipeGivenToTheJSONLinesImportIsRefused() throws {
        let dir = try temporaryDirectory()
        let fifo = dir.appendingPathComponent("runs.jsonl").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try shell("timeout 120 \"$ROUTINE\" history import runs.jsonl --history '\(history)'", in: dir)
        #expect(result.status == 66, "exit \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("error[E013]: 'runs.jsonl' is a named pipe, not a regular file"), "\(result.stderr)")
        #expect(try execute(["history", "export", "--history", history]).stdout == "")
    }
}
