import Testing

@testable import RoutineLanguageServer

/// A named case of a table-driven test.
struct Named<Value: Sendable>: Sendable, CustomTestStringConvertible {
    var name: String
    var value: Value
    var testDescription: String { name }
}

struct JSONParserTests {
    static let valid: [Named<(String, JSON)>] = [
        (
            "object", #"{"a": [1, 2.5, -3e2], "b": {"c": null}, "d": true}"#,
            JSON.object(["a": [1, .number(2.5), .number(-300)], "b": ["c": nil], "d": true])
        ),
        ("escapes", #""a\"b\\c\/\n\t\u00e9""#, .string("a\"b\\c/\n\té")),
        ("surrogate pair", #""\ud83d\ude00""#, .string("😀")),
        ("lone surrogate", #""\ud83d""#, .string("\u{FFFD}")),
        ("raw UTF-8", #""日本""#, .string("日本")),
        ("empty containers", #"[{}, []]"#, [.object([:]), []]),
        ("spaces around", " \r\n\t 7 \n", 7),
    ].map { Named(name: $0.0, value: ($0.1, $0.2)) }

    @Test(arguments: valid)
    func parses(_ test: Named<(String, JSON)>) throws {
        #expect(try JSONParser.parse(Array(test.value.0.utf8)) == test.value.1)
    }

    @Test(arguments: [
        ("truncated", #"{"a": "#), ("trailing comma", "[1,]"), ("bare word", "nope"), ("two values", "1 2"),
        ("control character", "\"a\u{01}\""), ("bad escape", #""\q""#), ("key not a string", "{1: 2}"),
        ("missing colon", #"{"a" 1}"#), ("empty", ""), ("lone minus", "-"), ("not UTF-8", "\"\u{FF}\""),
    ])
    func refuses(_ name: String, _ text: String) {
        var bytes = Array(text.utf8)
        if name == "not UTF-8" { bytes = [0x22, 0xFF, 0x22] }
        #expect(throws: JSONParser.Failure.self, "\(name)") { try JSONParser.parse(bytes) }
    }

    @Test func deepNestingIsRefusedWithoutRecursion() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
        let allowed = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? JSONParser.parse(Array(allowed.utf8))) != nil)
    }

    @Test func serializingAndParsingAgainGivesTheSameValue() throws {
        let value: JSON = ["text": "a \"quoted\"\n\u{7F} line 😀", "n": [0, -5, .number(0.25)], "flag": false, "none": nil]
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(JSON.object(["b": 1, "a": 2]).text == #"{"a":2,"b":1}"#)
    }
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
