import Foundation
import Testing

/// Whatever arrives, `routine` answers with a diagnostic and a documented exit code: never a
/// crash trace, a hang, or unbounded memory.
struct HostileInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let file: String
        let bytes: @Sendable () -> [UInt8]
        var arguments: [String] = ["check"]
        let status: Int32
        /// Text stderr must contain; empty means stderr must be empty.
        let stderr: String
        var testDescription: String { name }
    }

    static func text(_ s: String) -> @Sendable () -> [UInt8] { { Array(s.utf8) } }
    static let r = "routine \"R\"\n"

    static let cases: [Case] = [
        Case(
            name: "invalid UTF-8", file: "x.rt", bytes: { Array((r + "habit a \"").utf8) + [0xFF] + Array("\"\n".utf8) }, status: 1,
            stderr: "input is not valid UTF-8: byte 0xFF at offset 21"),
        Case(name: "byte order mark", file: "x.rt", bytes: { [0xEF, 0xBB, 0xBF] + Array((r + "habit a \"A\"\n").utf8) }, status: 0, stderr: ""),
        Case(
            name: "NUL byte", file: "x.rt", bytes: { Array((r + "habit a \"A\" ").utf8) + [0] + [0x0A] }, status: 1,
            stderr: "unexpected character U+0000"),
        Case(
            name: "CR-only line ends", file: "x.rt", bytes: text("routine \"R\"\rhabit a \"A\" -> b\rhabit b \"B\" -> nope\r"), status: 1,
            stderr: "x.rt:3:16: error[E202]: unknown target 'nope'"),
        Case(
            name: "tabs everywhere", file: "x.rt", bytes: text("routine\t\"R\"\n\thabit\ta\t\"A\"\t->\tb\nhabit b \"B\"\t# tab\n"), status: 0,
            stderr: ""),
        Case(
            name: "a 10 MB string", file: "x.rt", bytes: { Array((r + "habit a \"" + String(repeating: "x", count: 10_000_000) + "\"\n").utf8) },
            status: 0, stderr: ""),
        Case(
            name: "a 100,000-character line", file: "x.rt",
            bytes: { Array((r + "habit a \"A\" -> nope  # " + String(repeating: "long ", count: 20_000) + "\n").utf8) }, status: 1,
            stderr: "x.rt:2:16: error[E202]: unknown target 'nope'"),
        Case(name: "empty file", file: "x.rt", bytes: text(""), status: 1, stderr: "error[E102]: missing routine declaration"),
        Case(name: "comments only", file: "x.rt", bytes: text("# one\n# two\n"), status: 1, stderr: "error[E102]"),
        Case(
            name: "only the routine line", file: "x.rt", bytes: text("routine \"x\"\n"), status: 0,
            stderr: "warning[W007]: routine 'x' has no habits or questions"),
        Case(
            name: "a question with 100,000 options", file: "x.rt",
            bytes: {
                Array((r + "question q \"Q\"\n" + (0..<100_000).map { "  \"option \($0)\" -> end\n" }.joined()).utf8)
            }, status: 0, stderr: "warning[W002]: every option of question 'q' leads to the same place"),
        Case(
            name: "a node with 100,000 targets", file: "x.rt",
            bytes: {
                Array(
                    (r + "habit a \"A\" -> " + (0..<100_000).map { "t\($0)" }.joined(separator: ", ") + "\n"
                        + (0..<100_000).map { "habit t\($0) \"T\"\n" }.joined()).utf8)
            }, status: 0, stderr: ""),
        Case(
            name: "an overflowing duration", file: "x.rt", bytes: text(r + "habit a \"A\" for 99999999999999h\n"), status: 1,
            stderr: "invalid duration '99999999999999h': a habit can last at most 24h"),
        Case(
            name: "a target of 1e400", file: "x.rt", bytes: text(r + "habit a \"A\" target 1e400\n"), status: 1,
            stderr: "invalid target '1e400': exponents are not allowed"),
        Case(
            name: "a duration of zero", file: "x.rt", bytes: text(r + "habit a \"A\" for 0s\n"), status: 1,
            stderr: "invalid duration '0s': a duration must be longer than zero"),
        Case(
            name: "YAML nested 100,000 levels", file: "x.yaml",
            bytes: {
                Array(("routine: R\nnodes: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n").utf8)
            }, status: 1, stderr: "error[E308]: YAML is nested more than 64 levels deep"),
        Case(
            name: "YAML billion laughs", file: "x.yaml",
            bytes: {
                var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
                for k in 1...9 { text += "a\(k): &a\(k) [" + Array(repeating: "*a\(k - 1)", count: 9).joined(separator: ", ") + "]\n" }
                return Array(text.utf8)
            }, status: 1, stderr: "error[E307]: YAML anchors and aliases are not supported"),
        Case(
            name: "YAML with two documents", file: "x.yaml", bytes: text("routine: R\nnodes: []\n---\nroutine: S\n"), status: 1,
            stderr: "error[E309]: a second YAML document in one file"),
        Case(
            name: "YAML tags", file: "x.yaml", bytes: text("routine: !custom R\nnodes: []\n"), status: 1,
            stderr: "error[E310]: YAML tag '!custom' is not supported"),
        Case(
            name: "YAML non-string keys", file: "x.yaml", bytes: text("routine: R\n? [a, b]\n: c\nnodes: []\n"), status: 1,
            stderr: "error[E304]: a key must be a string, found a list"),
        Case(
            name: "a binary file as YAML", file: "x.yaml", bytes: { (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) } },
            status: 1, stderr: "error[E301]: invalid YAML"),
        Case(
            name: "a binary file as .rt", file: "x.rt", bytes: { (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) } },
            status: 1, stderr: "input is not valid UTF-8"),
        Case(
            name: "graph of a hostile routine", file: "x.rt", bytes: text(r + "habit a \"\\u{1}\\\"\\\\<>{}|\" -> end\n"),
            arguments: ["graph"], status: 0, stderr: ""),
        // SQLite's text ends at a NUL: a run would record the text cut short, so no string may hold one.
        Case(
            name: "a title holding \\u{0}", file: "x.rt", bytes: text(r + "habit a \"A\\u{0}B\"\n"), arguments: ["run", "--no-history"],
            status: 1, stderr: "x.rt:2:9: error[E012]: the title of habit 'a' holds the character NUL"),
        Case(
            name: "a title holding a NUL byte", file: "x.rt", bytes: { Array((r + "habit a \"A").utf8) + [0] + Array("B\"\n".utf8) },
            arguments: ["run", "--no-history"], status: 1, stderr: "x.rt:2:9: error[E012]: the title of habit 'a' holds the character NUL"),
        Case(
            name: "a routine's name and an answer holding \\u{0}", file: "x.rt",
            bytes: text("routine \"R\\u{0}\"\nquestion q \"Q\"\n  \"a\\u{0}\" -> end\n  \"b\"\n"), status: 1,
            stderr: "x.rt:1:9: error[E012]: the routine's name holds the character NUL"),
        Case(
            name: "a YAML title holding \\0", file: "x.yaml", bytes: text("routine: R\nnodes:\n- habit: a\n  title: \"A\\0B\"\n"),
            arguments: ["run", "--no-history"], status: 1, stderr: "x.yaml:4:10: error[E012]: the title of habit 'a' holds the character NUL"),
        Case(
            name: "a YAML answer holding \\u0000", file: "x.yaml",
            bytes: text("routine: R\nnodes:\n- question: q\n  prompt: P\n  options:\n  - answer: \"X\\u0000\"\n    next: end\n  - answer: Y\n"),
            status: 1, stderr: "x.yaml:6:13: error[E012]: an answer of question 'q' holds the character NUL"),
        Case(
            name: "paths of a routine with no questions", file: "x.rt", bytes: text(r + "habit a \"A\"\n"), arguments: ["paths", "--count"],
            status: 0, stderr: ""),
    ]

    @Test(arguments: cases)
    func answersWithADiagnosticAndAnExitCode(_ c: Case) throws {
        let dir = try temporaryDirectory()
        try Data(c.bytes()).write(to: dir.appendingPathComponent(c.file))
        let started = Date()
        let result = try execute(c.arguments + [c.file], in: dir)
        #expect(result.status == c.status)
        if c.stderr.isEmpty {
            #expect(result.stderr == "")
        } else {
            #expect(result.stderr.contains(c.stderr), "\(result.stderr.prefix(600))")
        }
        Self.expectNoCrash(result)
        #expect(Date().timeIntervalSince(started) < 60, "no hang")
        // A long line is shown as a window around the problem, not whole.
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.count < 400 })
        try? FileManager.default.removeItem(at: dir)
    }

    static func expectNoCrash(_ result: Execution, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["Fatal error", "Stack dump", "Segmentation fault", "Illegal instruction", "💣"] {
            #expect(!result.stderr.contains(marker), "crash trace: \(result.stderr.prefix(400))", sourceLocation: sourceLocation)
        }
        #expect([0, 1, 3, 64, 66, 69, 74, 130].contains(result.status), "undocumented exit \(result.status)", sourceLocation: sourceLocation)
    }

    @Test func endlessInputIsRefusedAtTheBound() throws {
        let result = try shell("\"$ROUTINE\" check /dev/zero")
        #expect(result.status == 66)
        #expect(result.stderr.contains("more than the largest accepted input (268435456 bytes)"))
        Self.expectNoCrash(result)
    }

    /// A named pipe given on the command line has no writer: opening it as a file would wait
    /// forever. Every command that reads a routine or a test file names it instead. `timeout`
    /// bounds the test should a command wait again (it then exits 124).
    @Test(arguments: [
        ["check"], ["run", "--no-history"], ["graph"], ["fmt"], ["stats"], ["paths"], ["test"], ["today"],
    ])
    func aNamedPipeOnTheCommandLineIsNamedNotOpened(_ command: [String]) throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("routine-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = command[0] == "test" ? "p.rt.test" : "p.rt"
        #expect(mkfifo(dir.appendingPathComponent(name).path, 0o600) == 0)
        let arguments = ([command[0], name] + command.dropFirst()).map { "'\($0)'" }.joined(separator: " ")
        let result = try shell("timeout 60 \"$ROUTINE\" \(arguments) </dev/null", in: dir)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("error[E013]: '\(name)' is a named pipe, not a regular file"), "\(result.stderr)")
        Self.expectNoCrash(result)
    }

    /// A pipe that has a writer is read to its end, as a file: process substitution and
    /// `/dev/stdin` work as in any Unix tool.
    @Test(arguments: [
        "$ROUTINE check <(cat routines/morning.rt)", "cat routines/morning.rt | $ROUTINE check /dev/stdin",
        "$ROUTINE run <(cat routines/morning.rt) --no-history --answers <(printf \"\\n\\n5\\n\\n7\\n\")",
    ])
    func aPipeWithAWriterIsRead(_ script: String) throws {
        let result = try shell("timeout 60 bash -c '\(script)'", in: packageRoot)
        #expect(result.status == 0, "\(script): \(result.stderr)")
        #expect(!result.stderr.contains("E013"), "\(result.stderr)")
    }

    @Test func fileWithoutReadPermission() throws {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("routine-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        let file = dir.appendingPathComponent("secret.rt")
        try "routine \"R\"\nhabit a \"A\"\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        // root reads anything, so drop to 'nobody' for this one command.
        let prefix = getuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups " : ""
        // Copied by a child process, so that no other test's process inherits it open for
        // writing (which makes running it fail with "text file busy").
        let result = try shell("cp \"$ROUTINE\" '\(dir.path)/routine' && \(prefix)'\(dir.path)/routine' check '\(file.path)'")
        #expect(result.status == 66)
        #expect(result.stderr.contains("cannot read '\(file.path)': permission denied"))
        Self.expectNoCrash(result)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func runJSONIntoAClosedPipeEndsQuietly() throws {
        // What feeds the run may itself meet the closed pipe when the run ends first: its complaints
        // are not the run's, so they go to /dev/null.
        let result = try shell("{ yes '' | head -200000; } 2>/dev/null | \"$ROUTINE\" run routines/morning.rt --json --date 2026-11-23 | head -1")
        #expect(result.stdout.hasPrefix(#"{"event":"start""#))
        // The empty answers are refused at the first question, each with a line on stderr,
        // until the closed pipe ends the run: how many depends on timing. Nothing else may
        // appear there (no "broken pipe", no crash).
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("step 3 ('mood'): choose an option") }, "\(result.stderr.prefix(300))")
        Self.expectNoCrash(result)
    }

    /// Kills `fmt --write` at many moments while it rewrites a large file: the file must always
    /// hold either all of the old text or all of the new, never a mixture or a truncation.
    @Test func interruptedWriteLeavesTheFileWhole() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("big.rt")
        var original = "routine   \"Big\"\n"
        for i in 0..<60_000 { original += "habit   h\(i) \"Step \(i)\"   ->   h\(i + 1)\n" }
        original += "habit h60000 \"Last\"\n"
        let formatted = try execute(["fmt", "-"], stdin: original).stdout
        #expect(formatted != original && !formatted.isEmpty)
        for attempt in 0..<8 {
            try original.write(to: file, atomically: true, encoding: .utf8)
            let delay = 0.05 + Double(attempt) * 0.06
            let result = try shell("\"$ROUTINE\" fmt --write '\(file.path)' & pid=$!; sleep \(delay); kill -9 $pid 2>/dev/null; wait $pid; true")
            #expect(!result.stderr.contains("Fatal error"))
            let now = try String(contentsOf: file, encoding: .utf8)
            #expect(now == original || now == formatted, "attempt \(attempt) left a partial file")
        }
        try? FileManager.default.removeItem(at: dir)
    }
}
