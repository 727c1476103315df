import Foundation
import Testing

@testable import RoutineKit

struct JSONValueTests {
    @Test(arguments: ["plain", "quote \" backslash \\ slash /", "line\nbreak\ttab\rcr", "nul \u{0} bell \u{7} esc \u{1B}",
                      "ls \u{2028} ps \u{2029}", "emoji 🧘‍♀️ é e\u{301} שלום", ""])
    func stringsSurviveAJSONParser(_ text: String) throws {
        let json = JSONValue.object([("text", .string(text)), ("n", .int(-12)), ("x", .number(2.5)), ("ok", .bool(true)), ("none", .null)]).text
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == text)
        #expect(parsed?["n"] as? Int == -12)
        #expect(!json.contains("\u{2028}") && !json.contains("\n"))
    }
}
