import Testing

@testable import RoutineKit

/// libyaml counts characters (Unicode scalars, a CRLF as two); the reader maps them to byte
/// offsets by addition before the first non-ASCII byte and with a cursor after it.
struct CharacterOffsetsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ascii", text: "routine: R\nnodes: []\n"),
        Case(name: "crlf", text: "a: b\r\nc: d\r\n"),
        Case(name: "non-ascii late", text: String(repeating: "x", count: 20) + "é☕️𝄞 and more ascii after"),
        Case(name: "non-ascii first", text: "ü" + String(repeating: "y", count: 17) + "ñ"),
        Case(name: "byte order mark", text: "\u{FEFF}title: café\n"),
        Case(name: "empty", text: ""),
    ]

    @Test(arguments: cases)
    func mapsEveryCharacterInAnyOrder(_ c: Case) {
        let bytes = Array(c.text.utf8)
        let origin = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The byte offset of each scalar after the mark, and of the end.
        var expected: [Int] = []
        var offset = origin
        for scalar in String(decoding: bytes[origin...], as: UTF8.self).unicodeScalars {
            expected.append(offset)
            offset += String(scalar).utf8.count
        }
        expected.append(offset)
        bytes.withUnsafeBufferPointer { buffer in
            var forward = CharacterOffsets(buffer)
            #expect(expected.indices.map { forward.byteOffset(ofCharacter: $0) } == expected)
            var backward = CharacterOffsets(buffer)
            #expect(expected.indices.reversed().map { backward.byteOffset(ofCharacter: $0) } == expected.reversed())
        }
    }
}
