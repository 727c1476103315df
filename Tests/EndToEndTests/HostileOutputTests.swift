import Foundation
import Testing

/// Output that could not be written is never reported as written; a routine's own text never
/// reaches the terminal raw; inputs in other encodings and odd arguments get one clear answer.
struct HostileOutputTests {
    static let morning = "routines/morning.rt"

    @Test(arguments: [
        ("check --format json", "$ROUTINE check --format json routines/broken-for-test.rt"),
        ("paths", "$ROUTINE paths routines/morning.rt"),
        ("graph", "$ROUTINE graph routines/morning.rt"),
        ("convert", "$ROUTINE convert routines/morning.rt --to yaml"),
        ("fmt", "$ROUTINE fmt routines/morning.rt"),
        ("run --json", "$ROUTINE run routines/morning.rt --no-history --json --answers /dev/null"),
    ])
    func aFullDeviceIsAnErrorNotSuccess(_ name: String, _ command: String) throws {
        let script = command.replacingOccurrences(of: "routines/broken-for-test.rt", with: "-") + " > /dev/full"
        let result = try shell("printf 'routine \"R\"\\nhabit a \"A\" -> nowhere\\n' | { \(script); }")
        #expect(result.status == 74, "\(name): \(result.stderr)")
        #expect(result.stderr.contains("error[E007]: cannot write standard output: no space left on device"), "\(name)")
    }

    @Test func aClosedStandardOutputIsAnError() throws {
        let result = try shell("$ROUTINE paths routines/morning.rt >&-")
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write standard output: it is closed"))
    }

    @Test func aClosedPipeKeepsTheResultOfErrors() throws {
        // Enough diagnostics that the reader is gone before they are all written.
        var source = "routine \"R\"\nhabit a \"A\" -> "
        source += (0..<30_000).map { "n\($0)" }.joined(separator: ", ") + "\n"
        let dir = try temporaryDirectory()
        try source.write(to: dir.appendingPathComponent("many.rt"), atomically: true, encoding: .utf8)
        let result = try shell("($ROUTINE check --format json many.rt; echo $? > status) | head -c 10 > /dev/null; cat status", in: dir)
        #expect(result.stdout == "1\n")
    }

    @Test func aClosedStandardErrorDoesNotChangeTheExitCode() throws {
        let result = try shell("printf 'routine \"R\"\\nhabit a \"A\" -> nowhere\\n' | $ROUTINE check - 2>&-")
        #expect(result.status == 1)
    }

    static let hostile = #"""
        routine "M\u{1B}]0;pwned\u{7}"
        start -> a
        habit a "A \u{1B}[2J \u{202E}x" -> b
        question b "Q\u{9B}31m"
          "\u{1B}]52;c;aGk=\u{7}" -> end
          "ok" -> end
        habit c "C\u{1B}[5m" -> nowhere
        """# + "\n"

    /// Every byte a person sees, from every command that shows a routine's text.
    @Test(arguments: [
        ("check", ["check", "-"]),
        ("check short", ["check", "--format", "short", "-"]),
        ("paths", ["paths", "-"]),
        ("paths --to", ["paths", "--to", "b", "-"]),
    ])
    func noControlCharacterReachesTheTerminal(_ name: String, _ arguments: [String]) throws {
        let result = try execute(arguments, stdin: Self.hostile)
        for text in [result.stdout, result.stderr] {
            let unsafe = text.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
            }
            #expect(unsafe.isEmpty, "\(name): \(unsafe.map { String($0.value, radix: 16) })")
        }
        if !arguments.contains("short") { #expect((result.stdout + result.stderr).contains("\\u{1B}"), "\(name)") }
    }

    @Test func aRunShowsTheRoutineAndTheAnswersVisibly() throws {
        let dir = try temporaryDirectory()
        let valid = Self.hostile.replacingOccurrences(of: "habit c \"C\\u{1B}[5m\" -> nowhere\n", with: "")
        #expect(valid != Self.hostile)
        try valid.write(to: dir.appendingPathComponent("evil.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["run", "evil.rt", "--no-history", "--answers", "-"], stdin: "\n\u{1B}[31m\n1\n", in: dir)
        #expect(result.status == 0)
        let all = result.stdout + result.stderr
        #expect(!all.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\u{7}" })
        #expect(result.stderr.contains("'\\u{1B}[31m' is not an option"))
        #expect(result.stdout.contains("1. A \\u{1B}[2J \\u{202E}x: done"))
    }

    @Test(arguments: [
        ("UTF-16LE", "UTF-16 (little-endian, with a byte order mark)", true), ("UTF-16BE", "UTF-16 (big-endian, without a byte order mark)", false),
        ("UTF-32LE", "UTF-32 (little-endian, without a byte order mark)", false),
    ])
    func otherEncodingsAreRefusedByName(_ encoding: String, _ described: String, _ bom: Bool) throws {
        for name in ["r.rt", "r.yaml"] {
            let dir = try temporaryDirectory()
            let text = name.hasSuffix(".rt") ? "routine \"R\"\nhabit a \"A\"\n" : "routine: R\nnodes:\n  - habit: a\n    title: A\n"
            let converted = text.data(
                using: encoding == "UTF-16LE" ? .utf16LittleEndian : encoding == "UTF-16BE" ? .utf16BigEndian : .utf32LittleEndian)!
            try ((bom ? Data([0xFF, 0xFE]) : Data()) + converted).write(to: dir.appendingPathComponent(name))
            let result = try execute(["check", "--format", "short", name], in: dir)
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "\(name): error[E003]: input is not UTF-8: it looks like \(described)\n\(name): note: save the file as UTF-8, for example with 'iconv -f \(bom ? "UTF-16" : encoding) -t UTF-8'\n"
            )
        }
    }

    @Test func aFileNameThatIsNotUTF8IsOpenedByItsBytes() throws {
        let dir = try temporaryDirectory()
        let result = try shell(
            "cp \(packageRoot.path)/routines/morning.rt \"$(printf 'm\\377.rt')\" && $ROUTINE check --strict \"$(printf 'm\\377.rt')\" && printf 'routine \"R\"\\nhabit a \"A\" -> x\\n' > \"$(printf 'b\\377.rt')\"; $ROUTINE check --format short \"$(printf 'b\\377.rt')\"",
            in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("b\\xFF.rt:2:16: error[E202]: unknown target 'x'"))
    }

    /// The first and last supported days, and the leap-year rules between (1900 is not a leap
    /// year, 2000 is); year 0 and the like are refused where dates enter.
    @Test(arguments: [("1900-01-01", "Monday"), ("1900-03-01", "Thursday"), ("2000-02-29", "Tuesday"), ("2199-12-31", "Tuesday")])
    func weekdaysOfEveryYear(_ date: String, _ weekday: String) throws {
        let result = try execute(["run", Self.morning, "--no-history", "--date", date, "--force", "--answers", "/dev/null"])
        #expect(result.stdout.hasPrefix("Morning · \(weekday) \(date)"))
    }

    @Test func answersFromStandardInputByDash() throws {
        let result = try execute(["run", Self.morning, "--no-history", "--date", "2020-01-06", "--answers", "-"], stdin: "d\nd\n1\nd\nd\nd\nd\n8\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Morning: completed"))
    }

    @Test func answerFilesWithCarriageReturnsOnly() throws {
        let dir = try temporaryDirectory()
        try Data("d\rd\r1\rd\rd\rd\rd\r8\r".utf8).write(to: dir.appendingPathComponent("cr.txt"))
        let result = try execute(
            ["run", packageRoot.path + "/" + Self.morning, "--no-history", "--date", "2020-01-06", "--answers", "cr.txt"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Morning: completed"))
    }

    @Test(arguments: [("closed", "<&-", "standard input is closed"), ("a directory", "< /tmp", "it is a directory")])
    func runWithUnreadableStandardInput(_ name: String, _ redirect: String, _ reason: String) throws {
        let result = try shell("$ROUTINE run routines/morning.rt --no-history \(redirect)")
        #expect(result.status == 66, "\(name)")
        #expect(result.stderr == "routine: error[E001]: cannot read '<stdin>': \(reason)\n", "\(name)")
    }

    @Test func anEndlessAnswerLineIsRefusedWithoutBeingKept() throws {
        let dir = try temporaryDirectory()
        let long = Data(repeating: UInt8(ascii: "x"), count: 5_000_000) + Data("\nd\nd\n1\nd\nd\nd\nd\n8\n".utf8)
        try long.write(to: dir.appendingPathComponent("long.txt"))
        let result = try execute(
            ["run", packageRoot.path + "/" + Self.morning, "--no-history", "--date", "2020-01-06", "--answers", "long.txt"], in: dir)
        #expect(result.status == 0)
        #expect(result.stderr == "step 1 ('water'): an answer is at most 4096 bytes: this line is longer\n")
    }

    @Test func pathsWithLimitZeroSaysNoneWereListed() throws {
        let result = try execute(["paths", "--limit", "0", "--to", "meditate", Self.morning])
        #expect(result.stdout == "'meditate' runs after some answers; none are listed (--limit 0)\n")
        let all = try execute(["paths", "--limit", "0", Self.morning])
        #expect(all.stdout == "none are listed (--limit 0)\n5 ways through 'Morning' · shortest 5m · longest 48m\n")
    }
}
