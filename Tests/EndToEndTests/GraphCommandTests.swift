import Foundation
import Testing

struct GraphCommandTests {
    @Test func dotOnStdout() throws {
        let result = try execute(["graph", "routines/morning.rt"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("digraph \"Morning\" {\n"))
        #expect(result.stderr == "")
    }

    @Test func mermaidOnStdout() throws {
        let result = try execute(["graph", "routines/morning.rt", "--format", "mermaid", "--rankdir", "LR"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("flowchart LR\n"))
    }

    @Test func invalidRoutineIsRefused() throws {
        let result = try execute(["graph", "Tests/RoutineKitTests/Fixtures/graphs/invalid.rt"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("error[E204]"))
    }

    @Test func allowInvalidDrawsAndListsTheProblems() throws {
        let result = try execute(["graph", "Tests/RoutineKitTests/Fixtures/graphs/invalid.rt", "--allow-invalid"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"" missing meditat""#))
        #expect(result.stderr.contains("invalid.rt:3:33: error[E204]"))
    }

    @Test(arguments: ["svg", "png", "pdf", "dot", "gv", "mmd"])
    func writesFiles(_ ext: String) throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("morning.\(ext)")
        let result = try execute(["graph", "routines/morning.rt", "-o", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: out)
        let head = String(decoding: data.prefix(64), as: UTF8.self)
        switch ext {
        case "svg": #expect(head.contains("<?xml") || head.contains("<svg"))
        case "png": #expect(data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        case "pdf": #expect(head.hasPrefix("%PDF"))
        case "mmd": #expect(head.hasPrefix("---\ntitle: \"Morning\""))
        default: #expect(head.hasPrefix("digraph"))
        }
    }

    @Test func renderingWithoutGraphvizSaysSo() throws {
        let dir = try temporaryDirectory()
        let result = try execute(
            ["graph", packageRoot.appendingPathComponent("routines/morning.rt").path, "-o", "x.svg"],
            environment: ["PATH": dir.path], in: dir)
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot render 'x.svg': Graphviz's 'dot' is not on PATH"))
    }

    @Test func unknownExtensionIsAUsageError() throws {
        let result = try execute(["graph", "routines/morning.rt", "-o", "x.jpeg"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot tell the format of 'x.jpeg'"))
    }

    @Test func closedPipeEndsQuietly() throws {
        let dir = try temporaryDirectory()
        var text = "routine \"Big\"\n"
        for i in 0..<50_000 { text += "habit h\(i) \"Step \(i)\"" + (i < 49_999 ? " -> h\(i + 1)\n" : "\n") }
        try text.write(to: dir.appendingPathComponent("big.rt"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(routineBinary.path)' graph big.rt | head -1; echo \"status=${PIPESTATUS:-$?}\""]
        process.currentDirectoryURL = dir
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stdout.hasPrefix("digraph \"Big\" {\n"))
        #expect(stderr == "")
    }
}
