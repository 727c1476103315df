import Hummingbird
import NIOCore
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// A request body the studio reads: a JSON object of known members.
protocol RequestBody {
    /// The members it may have.
    static var members: Set<String> { get }
    /// What it is, as a refusal names it: "a log".
    static var name: String { get }
    /// The body from its members, which ``BodyReader`` has checked are all known.
    init(_ members: BodyMembers) throws(StudioError)
}

/// The one reader of request bodies, over RoutineKit's JSON reader. Its rules, the same for
/// every body: an empty body is `{}`; anything but a JSON object is refused; a member the body
/// does not know is refused, named, so that a misspelt member never passes unseen; `null` is an
/// absent member. Each refusal is a 400 saying what is wrong.
enum BodyReader {
    /// The body of `request`, at most `limit` bytes.
    static func read<Body: RequestBody>(_: Body.Type, from request: Request, limit: Int = 1 << 16) async throws -> Body {
        let buffer = try await request.body.collect(upTo: limit)
        return try read(Body.self, from: Array(buffer: buffer))
    }

    static func read<Body: RequestBody>(_: Body.Type, from bytes: [UInt8]) throws(StudioError) -> Body {
        let empty = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let json = empty ? JSON.object([:]) : try? JSONParser.parse(bytes), let members = BodyMembers(json) else {
            throw .malformed("the body is not a JSON object")
        }
        return try members.read(Body.self)
    }
}

/// The members of a body (or of an object inside one), read by type, each refused in the
/// page's words.
struct BodyMembers {
    private let values: [String: JSON]

    /// Nil when `json` is not an object.
    init?(_ json: JSON) {
        guard case .object(let values) = json else { return nil }
        self.values = values
    }

    /// `Body`, from these members once each is one it knows.
    func read<Body: RequestBody>(_: Body.Type) throws(StudioError) -> Body {
        if let unknown = values.keys.sorted().first(where: { !Body.members.contains($0) }) {
            throw .malformed("'\(unknown)' is not a member of \(Body.name)")
        }
        return try Body(self)
    }

    /// Whether `name` is given (null is not).
    func has(_ name: String) -> Bool { values[name].map { $0 != .null } ?? false }

    /// Whether `name` is there at all, null too.
    func contains(_ name: String) -> Bool { values[name] != nil }

    /// The member as a number; nil when absent, null or of another type.
    func number(_ name: String) -> Double? { values[name].flatMap(Self.asNumber) }

    /// The member as a string; nil when absent, null or of another type.
    func text(_ name: String) -> String? { values[name]?.string }

    /// The member as a list of strings; nil when absent, null or of another shape.
    func texts(_ name: String) -> [String]? { values[name].flatMap(Self.asTexts) }

    private static func asNumber(_ json: JSON) -> Double? {
        if case .number(let value) = json { return value }
        return nil
    }

    private static func asTexts(_ json: JSON) -> [String]? {
        guard case .array(let items) = json else { return nil }
        var texts: [String] = []
        for item in items {
            guard let text = item.string else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// The member as a list of bodies, each checked as ``BodyReader`` checks a body; nil when
    /// it is not a list of objects.
    func bodies<Body: RequestBody>(_ name: String, _: Body.Type) throws(StudioError) -> [Body]? {
        guard case .array(let items)? = values[name] else { return nil }
        var bodies: [Body] = []
        for item in items {
            guard let members = BodyMembers(item) else { return nil }
            bodies.append(try members.read(Body.self))
        }
        return bodies
    }

    private func read<T>(_ name: String, must: String, _ cast: (JSON) -> T?) throws(StudioError) -> T? {
        guard let value = values[name], value != .null else { return nil }
        guard let read = cast(value) else { throw .malformed("'\(name)' must be \(must)") }
        return read
    }

    private func required<T>(_ name: String, _ value: T?) throws(StudioError) -> T {
        guard let value else { throw .malformed("'\(name)' is missing") }
        return value
    }

    func string(_ name: String) throws(StudioError) -> String { try required(name, optionalString(name)) }

    func optionalString(_ name: String) throws(StudioError) -> String? { try read(name, must: "a string", \.string) }

    func int(_ name: String) throws(StudioError) -> Int { try required(name, optionalInt(name)) }

    func optionalInt(_ name: String) throws(StudioError) -> Int? {
        guard let number = try read(name, must: "a whole number", Self.asNumber) else { return nil }
        guard let exact = Int(exactly: number) else { throw .malformed("'\(name)' must be a whole number") }
        return exact
    }

    func optionalBool(_ name: String) throws(StudioError) -> Bool? { try read(name, must: "true or false", \.bool) }

    func optionalNumber(_ name: String) throws(StudioError) -> Double? {
        guard let number = try read(name, must: "a number", Self.asNumber) else { return nil }
        guard number.isFinite else { throw .malformed("'\(name)' must be a number") }
        return number
    }

    func strings(_ name: String) throws(StudioError) -> [String] {
        try required(name, read(name, must: "a list of strings", Self.asTexts))
    }

    /// A date member (YYYY-MM-DD); nil when absent.
    func optionalDate(_ name: String) throws(StudioError) -> CalendarDate? {
        guard let text = try optionalString(name) else { return nil }
        guard let day = CalendarDate(text) else { throw .malformed("'\(text)' is not a date (YYYY-MM-DD)") }
        return day
    }
}
