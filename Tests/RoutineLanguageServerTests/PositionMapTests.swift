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

struct EditedPositionMapTests {
    /// Texts whose line ends are LF, CRLF, lone CR, and pairs that an edit splits or joins.
    static let texts = ["", "a", "ab\r\ncd\ref\ngh", "\r\n\r\n", "x\r", "\n\r\r\n", "日本\r\n😀\n"]
    /// What the edits insert: nothing, text, and every kind of line end.
    static let insertions = ["", "z", "\n", "\r", "\r\n", "q\r", "\nq", "é\r\n\r"]

    /// Every replacement of every range of each text by each insertion: the carried-forward
    /// lines are those a scan of the edited text finds.
    @Test(arguments: texts)
    func carriedLinesAreThoseOfTheEditedText(_ text: String) {
        let bytes = Array(text.utf8)
        let map = PositionMap(SourceFile(name: "p.rt", bytes: bytes), encoding: .utf16)
        for start in 0...bytes.count {
            for end in start...bytes.count {
                for insertion in Self.insertions {
                    var edited = bytes
                    let inserted = Array(insertion.utf8)
                    edited.replaceSubrange(start..<end, with: inserted)
                    let carried = map.replacing(Span(start: start, end: end), insertedCount: inserted.count, giving: edited)
                    let scanned = PositionMap(SourceFile(name: "p.rt", bytes: edited), encoding: .utf16)
                    #expect(carried.lineStarts == scanned.lineStarts, "\(text.debugDescription) [\(start)..<\(end)] <- \(insertion.debugDescription)")
                    #expect(carried.bytes == edited)
                }
            }
        }
    }
}
