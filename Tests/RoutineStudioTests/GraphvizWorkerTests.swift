import RoutineKit
import Testing

@testable import RoutineStudio

#if canImport(Glibc)
import Glibc
#endif

/// The kept `dot` process: one layout after another, past the process's replacement; a graph
/// `dot` refuses, and the next one laid out all the same; and the reading of its json0.
@Suite(.serialized)
struct GraphvizWorkerTests {
    static func graph(_ k: Int) -> [UInt8] {
        Array("digraph { a\(k) [width=\(k % 5 + 1)]; a\(k) -> b; b -> c [id=\"e0\"]; }\n".utf8)
    }

    @Test func layoutsFollowOneAnotherPastTheReplacement() throws {
        let worker = GraphvizWorker()
        for k in 0..<(GraphvizWorker.layoutsPerProcess + 5) {
            let bytes = try worker.layout(Self.graph(k)).get()
            let layout = try #require(StudioLayout.parse(bytes, arrows: [StudioLayout.Arrow(from: "b", to: "c", option: nil, kind: .next)]))
            // Each answer is this graph's own: its first node is as wide as it was asked to be.
            #expect(layout.boxes["a\(k)"]?.width == Double(k % 5 + 1) * 72, "layout \(k)")
            #expect(layout.arrows[0].points.count >= 4)
            #expect(layout.arrows[0].tip != nil)
        }
    }

    /// A pipe made as Foundation's `Pipe` and a test's child process make it, without
    /// close-on-exec, is open while a `dot` that outlives it starts (a layout of another
    /// studio of the process): once the pipe's owner closes its writing end, its reader sees
    /// the end at once. A `dot` holding a copy kept `readDataToEndOfFile` waiting for as long
    /// as the `dot` lived, which for a kept worker is the test process's life.
    @Test(arguments: ["kept worker", "one-shot dot"])
    func aDotHoldsNoDescriptorOfTheCaller(_ kind: String) throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        // Either `dot` is started now and runs on past the check below: the worker's, laying
        // out, or a one-shot `dot` waiting for the rest of its input.
        let worker = GraphvizWorker()
        var oneShot: (pid: pid_t, input: Int32)?
        if kind == "kept worker" {
            #expect(worker.begin(Self.graph(1)) == nil)
        } else {
            let input = try #require(GraphvizRenderer.closeOnExecPipe())
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(null) }
            let pid = try #require(GraphvizRenderer.spawn(as: "svg", input: input.read, output: null))
            close(input.read)
            oneShot = (pid, input.write)
        }
        close(ends[1])
        var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        // Bounded: a read would wait for as long as a `dot` that holds the pipe lives.
        let ended = poll(&ready, 1, 5000) == 1
        #expect(ended, "the pipe stayed open in the \(kind)")
        var byte: UInt8 = 0
        if ended { #expect(read(ends[0], &byte, 1) == 0) }
        if let oneShot {
            close(oneShot.input)
            var status: Int32 = 0
            while waitpid(oneShot.pid, &status, 0) < 0, errno == EINTR {}
        } else {
            #expect((try? worker.finish()?.get())?.isEmpty == false)
        }
    }

    @Test func aGraphDotRefusesFailsAndTheNextIsLaidOut() throws {
        let worker = GraphvizWorker()
        #expect(throws: Diagnostic.self) { try worker.layout(Array("digraph { a -> }\n".utf8)).get() }
        let bytes = try worker.layout(Self.graph(1)).get()
        #expect(StudioLayout.parse(bytes, arrows: [])?.boxes["a1"] != nil)
    }

    @Test(arguments: [
        ("plain", "12.5,-3 4,5", [12.5, -3, 4, 5], [UInt8(ascii: " "), UInt8(ascii: " ")]),
        ("marks", "e,1,2 s,3.25,4 5,6", [1, 2, 3.25, 4, 5, 6], [UInt8(ascii: "e"), UInt8(ascii: "s"), UInt8(ascii: " ")]),
        ("exponent", "1e+05,2.5E-1", [100_000, 0.25], [UInt8(ascii: " ")]),
        ("many digits", "0.1234567890123456789,7", [0.12345678901234568, 7], [UInt8(ascii: " ")]),
    ])
    func coordinatesAreRead(_ name: String, _ text: String, _ numbers: [Double], _ marks: [UInt8]) {
        var scanner = NumberScanner(ArraySlice(Array(text.utf8)))
        var read: [Double] = []
        var seen: [UInt8] = []
        while let mark = scanner.mark() {
            seen.append(mark)
            guard let x = scanner.next(), let y = scanner.next() else { break }
            read += [x, y]
        }
        #expect(seen == marks, "\(name)")
        #expect(zip(read, numbers).allSatisfy { abs($0 - $1) <= abs($1) * 1e-15 } && read.count == numbers.count, "\(name): \(read)")
    }

    @Test func json0IsReadWithEscapesAndNesting() {
        let text =
            #"{"name": "%3", "bb": "0,0,100,50", "label": "<<b \"x\">>", "objects": [{"name": "n\"0", "pos": "50,25", "width": "1", "height": "0.5", "nested": {"a": [1, {"b": "}"}]}}], "edges": []}"#
        let layout = StudioLayout.parse(Array(text.utf8), arrows: [])
        #expect(layout?.width == 100)
        #expect(layout?.boxes["n\"0"]?.x == 14)
        #expect(layout?.boxes["n\"0"]?.y == 7)
        #expect(StudioLayout.parse(Array(#"{"bb": "0,0,1,1", "objects": [ "#.utf8), arrows: []) == nil)
    }
}
