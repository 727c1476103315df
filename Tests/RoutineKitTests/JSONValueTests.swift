import Foundation
import Testing

@testable import RoutineKit

struct JSONValueTests {
    @Test(arguments: [
        "plain", "quote \" backslash \\ slash /", "line\nbreak\ttab\rcr", "nul \u{0} bell \u{7} esc \u{1B}",
        "ls \u{2028} ps \u{2029}", "emoji 🧘‍♀️ é e\u{301} שלום", "",
    ])
    func stringsSurviveAJSONParser(_ text: String) throws {
        let json = JSONValue.object([("text", .string(text)), ("n", .int(-12)), ("x", .number(2.5)), ("ok", .bool(true)), ("none", .null)]).text
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == text)
        #expect(parsed?["n"] as? Int == -12)
        #expect(!json.contains("\u{2028}") && !json.contains("\n"))
    }

    /// Strings are copied eight bytes at a time, and their last one to seven bytes as one word,
    /// up to the first byte that needs an escape; wherever that byte sits in a string of any
    /// length, a JSON parser reads back the string written.
    @Test(arguments: ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9B}", "é", "\u{2028}", "😀"])
    func escapesAnywhereInTheString(_ special: String) throws {
        let plain = "abcdefghijklmnopqrstuvwx"
        for length in 0...plain.count {
            for position in 0...length {
                var text = String(plain.prefix(length))
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                let json = JSONValue.array([.string(text)]).text
                let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
                #expect(parsed == [text], "at \(position) of \(length): \(json)")
                // No control a terminal could act on: C0, DEL and C1 are all escaped.
                #expect(!json.contains("\u{2028}") && !json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            }
        }
    }
}
