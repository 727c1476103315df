import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// A named case of a table-driven test.
struct Named<Value: Sendable>: Sendable, CustomTestStringConvertible {
    var name: String
    var value: Value
    var testDescription: String { name }
}

struct FrameDecoderTests {
    static func frame(_ body: String) -> [UInt8] { FrameDecoder.frame(Array(body.utf8)) }

    @Test func framesSplitAnywhereAreReassembled() {
        let stream = Self.frame(#"{"a":1}"#) + Self.frame(#"{"b":"日本"}"#)
        for cut in 1..<stream.count {
            var decoder = FrameDecoder()
            var frames: [Frame] = []
            for part in [stream[..<cut], stream[cut...]] {
                Array(part).withUnsafeBufferPointer { decoder.append($0) }
                while let frame = decoder.next() { frames.append(frame) }
            }
            #expect(frames == [.message(Array(#"{"a":1}"#.utf8)), .message(Array(#"{"b":"日本"}"#.utf8))], "cut at \(cut)")
        }
    }

    @Test(arguments: [
        ("no length", "Content-Type: x\r\n\r\n"),
        ("negative length", "Content-Length: -4\r\n\r\n"),
        ("too large", "Content-Length: 999999999999\r\n\r\n"),
    ])
    func aBadHeaderIsReportedAndTheNextMessageRead(_ name: String, _ header: String) {
        var decoder = FrameDecoder()
        let good = Self.frame("{}")
        (Array(header.utf8) + (name == "too large" ? [] : good)).withUnsafeBufferPointer { decoder.append($0) }
        guard case .badHeader = decoder.next() else {
            Issue.record("\(name): no bad header reported")
            return
        }
        if name != "too large" { #expect(decoder.next() == .message(Array("{}".utf8))) }
    }

    @Test func otherHeadersAndCaseAreAccepted() {
        var decoder = FrameDecoder()
        Array("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}".utf8).withUnsafeBufferPointer {
            decoder.append($0)
        }
        #expect(decoder.next() == .message(Array("{}".utf8)))
    }
}
