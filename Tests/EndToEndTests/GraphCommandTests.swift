import Foundation
import RoutineKit
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

    /// A PNG's width and height, from its IHDR chunk.
    private func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](data)
        try #require(bytes.count > 24 && bytes[0..<4] == [0x89, 0x50, 0x4E, 0x47] && bytes[12..<16].elementsEqual("IHDR".utf8))
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func smallRoutinesPNGIsDotsOwn() throws {
        let dir = try temporaryDirectory()
        let ours = try execute(["graph", "routines/morning.rt", "-o", dir.appendingPathComponent("ours.png").path])
        #expect(ours.status == 0, "\(ours.stderr)")
        let plain = try shell("\"$ROUTINE\" graph routines/morning.rt | dot -Tpng -o '\(dir.path)/dot.png'")
        #expect(plain.status == 0, "\(plain.stderr)")
        let size = try pngSize(Data(contentsOf: dir.appendingPathComponent("ours.png")))
        let expected = try pngSize(Data(contentsOf: dir.appendingPathComponent("dot.png")))
        #expect(size == expected)
    }

    @Test func largeRoutinesPNGIsWithinThePixelLimit() throws {
        let dir = try temporaryDirectory()
        // At Graphviz's 96 dpi this chain of long titles is about 1,600 by 26,000 pixels.
        let title = String(repeating: "take a moment to notice how the body feels ", count: 5)
        var text = "routine \"Long\"\n"
        for i in 0..<250 { text += "habit h\(i) \"\(i) \(title)\"" + (i < 249 ? " -> h\(i + 1)\n" : "\n") }
        try text.write(to: dir.appendingPathComponent("long.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["graph", "long.rt", "-o", "long.png"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let size = try pngSize(Data(contentsOf: dir.appendingPathComponent("long.png")))
        let pixels = size.width * size.height
        #expect(pixels <= GraphvizRenderer.pngPixelLimit)
        // Shrunk to the limit, not far past it.
        #expect(pixels >= GraphvizRenderer.pngPixelLimit * 3 / 4)
        #expect(size.height > size.width * 8)
    }

    /// A routine of many answers, whose answers are drawn as `xlabel`s: `neato -n2` places them
    /// anew and its picture came out 8% over the limit before `size` bounded it.
    @Test func manyAnswersPNGIsWithinThePixelLimit() throws {
        let dir = try temporaryDirectory()
        let script = packageRoot.appendingPathComponent("Benchmarks/shapes-gen.py").path
        let made = try shell("python3 '\(script)' answers 200 > '\(dir.path)/answers.yaml'")
        #expect(made.status == 0, "\(made.stderr)")
        let result = try execute(["graph", "answers.yaml", "-o", "answers.png"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let size = try pngSize(Data(contentsOf: dir.appendingPathComponent("answers.png")))
        #expect(size.width * size.height <= GraphvizRenderer.pngPixelLimit)
        #expect(size.width * size.height >= GraphvizRenderer.pngPixelLimit * 3 / 4)
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
