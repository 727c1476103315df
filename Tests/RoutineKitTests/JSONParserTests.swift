import RoutineKit
import Testing

/// A JSON text and the value it reads as, named for the test's report.
struct NamedJSON: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var value: JSON
    var testDescription: String { name }
}

struct JSONParserTests {
    static let valid: [NamedJSON] = [
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
    ].map { NamedJSON(name: $0.0, text: $0.1, value: $0.2) }

    @Test(arguments: valid)
    func parses(_ test: NamedJSON) throws {
        #expect(try JSONParser.parse(Array(test.text.utf8)) == test.value)
    }

    @Test(arguments: [
        ("truncated", #"{"a": "#), ("trailing comma", "[1,]"), ("bare word", "nope"), ("two values", "1 2"),
        ("control character", "\"a\u{01}\""), ("bad escape", #""\q""#), ("key not a string", "{1: 2}"),
        ("missing colon", #"{"a" 1}"#), ("empty", ""), ("lone minus", "-"), ("not UTF-8", "\"\u{FF}\""),
        ("a number no Double holds", "[1e400]"), ("a negative one", "-1e400"),
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

/// The pull reader reads what the tree reader reads: every string value, in order, and every
/// other value skipped whole.
struct JSONPullReaderTests {
    /// A value of up to `depth` levels, drawn from `random`: strings with escapes, numbers,
    /// literals, arrays and objects.
    static func value(_ random: inout SeededRandom, depth: Int) -> JSON {
        let words = ["a", "quote \" in", "back\\slash", "line\nbreak", "tab\t", "slash /", "日本", "😀", "", "} ] , :"]
        switch depth == 0 ? random.below(4) : random.below(6) {
        case 0: return .string(words[random.below(words.count)])
        case 1: return .number(Double(random.below(2000)) / 8 - 100)
        case 2: return [.bool(true), .bool(false), .null][random.below(3)]
        case 3: return .number(1e21)
        case 4: return .array((0..<random.below(4)).map { _ in value(&random, depth: depth - 1) })
        default:
            var fields: [String: JSON] = [:]
            for k in 0..<random.below(4) { fields["k\(k)\(words[random.below(words.count)])"] = value(&random, depth: depth - 1) }
            return .object(fields)
        }
    }

    /// Every string in `value`, in the order its serialized text holds them (keys sorted).
    static func strings(in value: JSON) -> [String] {
        var found: [String] = []
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .string(let text): found.append(text)
            case .array(let values): pending += values.reversed()
            case .object(let fields): pending += fields.sorted { $0.key < $1.key }.map(\.value).reversed()
            default: break
            }
        }
        return found
    }

    /// Every string the pull reader finds: a value is tried as a string, an object, an array,
    /// and otherwise skipped.
    static func pulled(_ reader: inout JSONPullReader, into found: inout [String]) -> Bool {
        if let text = reader.string() {
            found.append(text)
            return true
        }
        var inner: [String] = []
        let read =
            reader.object { reader, _ in pulled(&reader, into: &inner) } || reader.array { reader in pulled(&reader, into: &inner) }
            || reader.skip()
        found += inner
        return read
    }

    @Test(arguments: 0..<200)
    func agreesWithTheTreeReader(_ seed: Int) throws {
        var random = SeededRandom(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let value = JSON.object(["root": Self.value(&random, depth: 4)])
        let text = value.serialized
        var reader = JSONPullReader(text)
        var found: [String] = []
        #expect(reader.readObject { reader, _ in Self.pulled(&reader, into: &found) })
        #expect(found == Self.strings(in: try JSONParser.parse(text)))
        #expect(found == Self.strings(in: value))
    }

    @Test(arguments: [
        (#"{"name": "x", "other": [1, {"name": "y"}]}"#, ["x"]),
        (#"{"other": {"a": "}"}, "name": "n\"0"}"#, ["n\"0"]),
        (#" { "name" : "spaced" } "#, ["spaced"]),
    ])
    func readsTheMembersAskedFor(_ text: String, _ names: [String]) {
        var reader = JSONPullReader(Array(text.utf8))
        var found: [String] = []
        let read = reader.readObject { reader, key in
            guard key.is("name") else { return reader.skip() }
            found.append(reader.string() ?? "?")
            return true
        }
        #expect(read && found == names)
    }

    @Test(arguments: [#"{"a": "#, #"["not an object"]"#, #"{"a" 1}"#, #"{"a": "unterminated}"#, ""])
    func refusesWhatIsNotAnObject(_ text: String) {
        var reader = JSONPullReader(Array(text.utf8))
        #expect(!reader.readObject { reader, _ in reader.skip() })
    }
}
