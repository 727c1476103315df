import RoutineKit
import Testing

@testable import RoutineLanguageServer

struct PositionMapTests {
    static let text = "ab\r\n😀x日\ré\n"

    @Test(arguments: [
        // (byte offset, UTF-16 position, UTF-8 position)
        (0, Position(line: 0, character: 0), Position(line: 0, character: 0)),
        (2, Position(line: 0, character: 2), Position(line: 0, character: 2)),
        (8, Position(line: 1, character: 2), Position(line: 1, character: 4)),
        (9, Position(line: 1, character: 3), Position(line: 1, character: 5)),
        (12, Position(line: 1, character: 4), Position(line: 1, character: 8)),
        (13, Position(line: 2, character: 0), Position(line: 2, character: 0)),
        (15, Position(line: 2, character: 1), Position(line: 2, character: 2)),
        (16, Position(line: 3, character: 0), Position(line: 3, character: 0)),
    ])
    func offsetsAndPositionsAgree(_ offset: Int, _ utf16: Position, _ utf8: Position) throws {
        let file = SourceFile(name: "p.rt", text: Self.text)
        for (encoding, position) in [(PositionEncoding.utf16, utf16), (.utf8, utf8)] {
            let map = PositionMap(file, encoding: encoding)
            #expect(map.position(offset) == position, "\(encoding)")
            #expect(try map.offset(position) == offset, "\(encoding)")
        }
    }

    @Test func aCharacterPastTheLineEndIsTheLineEndAndALinePastTheEndIsRefused() throws {
        let map = PositionMap(SourceFile(name: "p.rt", text: Self.text), encoding: .utf16)
        #expect(try map.offset(Position(line: 0, character: 99)) == 2)
        #expect(try map.offset(Position(line: 1, character: 1)) == 8, "inside a surrogate pair: after it")
        #expect(throws: ResponseError.self) { try map.offset(Position(line: 4, character: 0)) }
    }
}
