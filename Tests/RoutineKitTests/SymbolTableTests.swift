import Testing

@testable import RoutineKit

struct SymbolTableTests {
    /// Names of every length from 0 to 20, and pairs that differ in one byte at every place:
    /// the hash and the comparison read names in words and overlapping pieces.
    static var names: [String] {
        var names: [String] = []
        for length in 0...20 {
            let base = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            names.append(base)
            for place in 0..<length {
                var bytes = Array(base.utf8)
                bytes[place] = UInt8(ascii: "_")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return names
    }

    @Test func eachNameHasOneIDAndEachIDOneName() {
        var table = SymbolTable()
        let names = Self.names + (0..<5_000).map { "node\($0)" }
        let ids = names.map { table.intern($0) }
        #expect(ids == Array(0..<Int32(names.count)))
        #expect(table.count == names.count)
        for (name, id) in zip(names, ids) {
            #expect(table.intern(name) == id, "\(name)")
            #expect(table.name(id) == name)
        }
        #expect(table.count == names.count)
    }

    @Test func aPresizedTableGrowsToo() {
        var table = SymbolTable(capacity: 4)
        for k in 0..<1_000 { #expect(table.intern("n\(k)") == Int32(k)) }
        for k in 0..<1_000 { #expect(table.intern("n\(k)") == Int32(k)) }
    }
}
