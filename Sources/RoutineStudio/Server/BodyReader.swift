import Dispatch
import FoundationEssentials
import Hummingbird
import NIOCore
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// A request body the studio reads: a JSON object of known members.
protocol RequestBody: Decodable {
    /// The members it may have.
    static var members: Set<String> { get }
    /// What it is, as a refusal names it: "a log".
    static var name: String { get }
}

/// The one reader of request bodies. Its rules, the same for every body: an empty body is
/// `{}`; anything but a JSON object is refused; a member the body does not know is refused,
/// named, so that a misspelt member never passes unseen; `null` is an absent member. Each
/// refusal is a 400 saying what is wrong.
enum BodyReader {
    /// The body of `request`, at most `limit` bytes.
    static func read<Body: RequestBody>(_: Body.Type, from request: Request, limit: Int = 1 << 16) async throws -> Body {
        let buffer = try await request.body.collect(upTo: limit)
        return try read(Body.self, from: Array(buffer: buffer))
    }

    static func read<Body: RequestBody>(_: Body.Type, from bytes: [UInt8]) throws(StudioError) -> Body {
        let json = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } ? Array("{}".utf8) : bytes
        do {
            return try JSONDecoder().decode(Checked<Body>.self, from: Data(json)).body
        } catch let error as StudioError {
            throw error
        } catch {
            throw .malformed("the body is not a JSON object")
        }
    }

    /// A body (or an object inside one) checked for members it does not know before it is read.
    struct Checked<Body: RequestBody>: Decodable {
        let body: Body

        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Member.self)
            if let unknown = members.allKeys.map(\.stringValue).sorted().first(where: { !Body.members.contains($0) }) {
                throw StudioError.malformed("'\(unknown)' is not a member of \(Body.name)")
            }
            body = try Body(from: decoder)
        }
    }
}

/// A member of a body, by its name.
struct Member: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Typed reads of a body's members, each refused in the page's words.
extension KeyedDecodingContainer where Key == Member {
    /// Whether `name` is given (null is not).
    func has(_ name: String) -> Bool { contains(Member(name)) && (try? decodeNil(forKey: Member(name))) == false }

    private func read<T: Decodable>(_: T.Type, _ name: String, must: String) throws(StudioError) -> T? {
        guard has(name) else { return nil }
        do { return try decode(T.self, forKey: Member(name)) } catch { throw .malformed("'\(name)' must be \(must)") }
    }

    private func required<T>(_ name: String, _ value: T?) throws(StudioError) -> T {
        guard let value else { throw .malformed("'\(name)' is missing") }
        return value
    }

    func string(_ name: String) throws(StudioError) -> String { try required(name, optionalString(name)) }

    func optionalString(_ name: String) throws(StudioError) -> String? { try read(String.self, name, must: "a string") }

    func int(_ name: String) throws(StudioError) -> Int { try required(name, optionalInt(name)) }

    func optionalInt(_ name: String) throws(StudioError) -> Int? {
        guard let number = try read(Double.self, name, must: "a whole number") else { return nil }
        guard let exact = Int(exactly: number) else { throw .malformed("'\(name)' must be a whole number") }
        return exact
    }

    func optionalBool(_ name: String) throws(StudioError) -> Bool? { try read(Bool.self, name, must: "true or false") }

    func optionalNumber(_ name: String) throws(StudioError) -> Double? {
        guard let number = try read(Double.self, name, must: "a number") else { return nil }
        guard number.isFinite else { throw .malformed("'\(name)' must be a number") }
        return number
    }

    func strings(_ name: String) throws(StudioError) -> [String] {
        try required(name, read([String].self, name, must: "a list of strings"))
    }

    /// A date member (YYYY-MM-DD); nil when absent.
    func optionalDate(_ name: String) throws(StudioError) -> CalendarDate? {
        guard let text = try optionalString(name) else { return nil }
        guard let day = CalendarDate(text) else { throw .malformed("'\(text)' is not a date (YYYY-MM-DD)") }
        return day
    }
}
