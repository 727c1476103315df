import Foundation
import Testing

struct CheckCommandTests {
    static let examples: [String] = {
        let folder = packageRoot.appendingPathComponent("routines")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".test") }.sorted().map {
            "routines/" + $0
        }
    }()

    @Test func thereAreAtLeastFourExamples() {
        #expect(Self.examples.filter { $0.hasSuffix(".rt") }.count >= 4)
    }

    @Test(arguments: examples)
    func exampleChecksCleanWithoutWarnings(_ path: String) throws {
        let result = try execute(["check", "--strict", path])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
    }

    @Test func threeProblemsAreReportedInOneRun() throws {
        let dir = try temporaryDirectory()
        try "routine \"R\"\nhabit a \"A\" -> b\nhabit b \"B\" -> a, c\nhabit d \"D\" for 5 -> a\n"
            .write(to: dir.appendingPathComponent("bad.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["check", "bad.rt", "--format", "short"], in: dir)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("bad.rt:3:16: error[E204]: routine has a cycle: 'a' -> 'b' -> 'a'") })
        #expect(lines.contains { $0.hasPrefix("bad.rt:3:19: error[E202]: unknown target 'c'") })
        #expect(lines.contains { $0.hasPrefix("bad.rt:4:17: error[E108]: invalid duration '5'") })
    }

    @Test func theSummaryCountsWhatACapLeftOut() throws {
        let text = "routine \"R\"\nhabit a \"A\" -> " + Array(repeating: "b", count: 10_005).joined(separator: ", ") + "\nhabit b \"B\"\n"
        let result = try execute(["check", "-"], stdin: text)
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last == "10004 warnings in '<stdin>'")
        #expect(lines.contains("<stdin>: warning[W004]: and 4 more W004 not listed (a target listed twice in one arrow)"))
    }

    @Test func jsonGoesToStdoutWithPositions() throws {
        let result = try execute(["check", "--format", "json", "-"], stdin: "routine \"R\"\nhabit a \"A\" -> nowhere\n")
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "[{\"file\":\"<stdin>\",\"line\":2,\"column\":16,\"endLine\":2,\"endColumn\":23,\"severity\":\"error\",\"code\":\"E202\",\"message\":\"unknown target 'nowhere'\""
            ))
        #expect(result.stderr == "")
    }

    @Test func warningsPassUnlessStrict() throws {
        let source = "routine \"R\"\nhabit a \"A\"\nhabit b \"B\"\n"
        let relaxed = try execute(["check", "-"], stdin: source)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr.contains("warning[W001]: node 'b' can never be reached from the start"))
        let strict = try execute(["check", "--strict", "-"], stdin: source)
        #expect(strict.status == 1)
    }

    static let failures: [ExpectedFailure] = [
        ExpectedFailure(
            name: "missing file", arguments: ["check", "no-such.rt"], status: 66, stderr: "cannot read 'no-such.rt': no such file or directory"),
        ExpectedFailure(name: "directory", arguments: ["check", "routines"], status: 66, stderr: "cannot read 'routines': it is a directory"),
        ExpectedFailure(name: "no file given", arguments: ["check"], status: 64, stderr: "Missing expected argument"),
        ExpectedFailure(name: "unknown option", arguments: ["check", "--frobnicate", "x.rt"], status: 64, stderr: "Unknown option"),
        ExpectedFailure(name: "bad format value", arguments: ["check", "--format", "xml", "x.rt"], status: 64, stderr: "xml"),
        ExpectedFailure(name: "unknown subcommand", arguments: ["frobnicate"], status: 64, stderr: "frobnicate"),
    ]

    @Test(arguments: failures)
    func failsWithDocumentedExitCode(_ f: ExpectedFailure) throws {
        try f.check()
    }

    @Test func colourFollowsTheFlagAndNoColor() throws {
        let source = "routine \"R\"\nhabit a \"A\" -> b\n"
        let always = try execute(["check", "--color", "always", "-"], stdin: source)
        #expect(always.stderr.contains("\u{1B}[1;31m"))
        // stderr is a pipe here, so auto means no colour.
        let auto = try execute(["check", "-"], stdin: source)
        #expect(!auto.stderr.contains("\u{1B}["))
    }

    @Test func millionHabitChainChecksInSeconds() throws {
        let dir = try temporaryDirectory()
        var text = "routine \"Chain\"\n"
        let n = 1_000_000
        text.reserveCapacity(n * 30)
        for i in 0..<n { text += "habit h\(i) \"Step \(i)\"" + (i + 1 < n ? " -> h\(i + 1)\n" : "\n") }
        let file = dir.appendingPathComponent("chain.rt")
        try text.write(to: file, atomically: false, encoding: .utf8)
        let started = Date()
        let result = try execute(["check", file.path])
        #expect(result.status == 0, "\(result.stderr.prefix(500))")
        #expect(result.stderr == "")
        // The speed bar lives in Benchmarks/run.sh (release build); this debug-build test only
        // proves a million-node chain is checked without a stack overflow, and guards against a hang.
        #expect(Date().timeIntervalSince(started) < 180)
        try? FileManager.default.removeItem(at: dir)
    }
}

struct CheckJSONTests {
    @Test func anUnreadableFileIsInTheJSONToo() throws {
        let result = try execute(["check", "--format", "json", "missing.rt", "routines/morning.rt"])
        #expect(result.status == 66)
        #expect(result.stderr == "")
        #expect(
            result.stdout
                == #"[{"file":"missing.rt","line":null,"column":null,"endLine":null,"endColumn":null,"severity":"error","code":"E001","message":"cannot read 'missing.rt': no such file or directory","labels":[],"notes":[]}]"#
                + "\n")
    }
}

/// A YAML routine handed to the `.rt` reader gets one error naming the cause, however it
/// arrives, and YAML named as YAML is read as such.
struct YAMLInDisguiseTests {
    static let yaml = "routine: Morning\nstart: water\nnodes:\n  - habit: water\n    title: Drink water\n"

    @Test(arguments: [("on standard input", "-"), ("as .rt", "morning.rt"), ("under an unknown extension", "morning.txt")])
    func looksLikeYAML(_ how: String, _ name: String) throws {
        let dir = try temporaryDirectory()
        if name != "-" { try Self.yaml.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let result = try execute(["check", "--format", "short", name], stdin: Self.yaml, in: dir)
        #expect(result.status == 1, "\(how)")
        let shown = name == "-" ? "<stdin>" : name
        #expect(
            result.stderr
                == "\(shown):1:1: error[E113]: this looks like YAML: use --input-format yaml or a .yaml name\n\(shown):1:1: note: a routine in the .rt language starts with 'routine \"NAME\"'\n",
            "\(how)")
    }

    @Test func readAsYAMLWhenToldSo() throws {
        let result = try execute(["check", "--input-format", "yaml", "-"], stdin: Self.yaml)
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }
}
