import Foundation
import RoutineKit

/// A `POST /api/edit` body: `{"version": N, "op": NAME, ...}`.
struct StudioEditRequest: Sendable {
    enum Action: Sendable { case op(RoutineEditOp), undo, redo }

    var version: Int
    var action: Action

    /// Why a body is not an edit, worded for the page.
    struct Malformed: Error { var reason: String }

    static func parse(_ bytes: [UInt8]) -> Result<StudioEditRequest, Malformed> {
        do { return .success(try StudioEditRequest(json: bytes)) } catch { return .failure(error) }
    }

    init(json bytes: [UInt8]) throws(Malformed) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw Malformed(reason: "the body is not a JSON object")
        }
        let fields = Fields(object: object)
        version = try fields.int("version")
        let name = try fields.string("op")
        switch name {
        case "undo": action = .undo
        case "redo": action = .redo
        case "addHabit":
            action = .op(.addHabit(id: try fields.optionalString("id"), title: try fields.string("title"), after: try fields.optionalString("after")))
        case "addQuestion":
            action = .op(.addQuestion(
                id: try fields.optionalString("id"), text: try fields.string("text"), options: try fields.strings("options"),
                after: try fields.optionalString("after")))
        case "connect":
            action = .op(.connect(from: try fields.string("from"), option: try fields.optionalInt("option"), to: try fields.string("to")))
        case "disconnect":
            action = .op(.disconnect(from: try fields.string("from"), option: try fields.optionalInt("option"), to: try fields.string("to")))
        case "setTitle": action = .op(.setTitle(id: try fields.string("id"), title: try fields.string("title")))
        case "setAttributes": action = .op(.setAttributes(id: try fields.string("id"), try fields.attributeChanges()))
        case "addOption": action = .op(.addOption(id: try fields.string("id"), text: try fields.string("text")))
        case "removeOption": action = .op(.removeOption(id: try fields.string("id"), option: try fields.int("option")))
        case "moveOption":
            action = .op(.moveOption(id: try fields.string("id"), option: try fields.int("option"), to: try fields.int("to")))
        case "rename": action = .op(.rename(id: try fields.string("id"), newID: try fields.string("newId")))
        case "delete": action = .op(.delete(id: try fields.string("id")))
        case "setName": action = .op(.setName(try fields.string("name")))
        default: throw Malformed(reason: "'\(name)' is not an op")
        }
    }

    /// Typed reads of the body's members.
    struct Fields {
        let object: [String: Any]

        func value(_ key: String) -> Any? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            return value
        }

        func string(_ key: String) throws(Malformed) -> String {
            guard let text = try optionalString(key) else { throw Malformed(reason: "'\(key)' is missing") }
            return text
        }

        func optionalString(_ key: String) throws(Malformed) -> String? {
            guard let value = value(key) else { return nil }
            guard let text = value as? String else { throw Malformed(reason: "'\(key)' must be a string") }
            return text
        }

        func int(_ key: String) throws(Malformed) -> Int {
            guard let number = try optionalInt(key) else { throw Malformed(reason: "'\(key)' is missing") }
            return number
        }

        func optionalInt(_ key: String) throws(Malformed) -> Int? {
            guard let value = value(key) else { return nil }
            guard let number = value as? NSNumber, !Self.isBool(number), let exact = Int(exactly: number.doubleValue) else {
                throw Malformed(reason: "'\(key)' must be a whole number")
            }
            return exact
        }

        func optionalBool(_ key: String) throws(Malformed) -> Bool? {
            guard let value = value(key) else { return nil }
            guard let number = value as? NSNumber, Self.isBool(number) else { throw Malformed(reason: "'\(key)' must be true or false") }
            return number.boolValue
        }

        func optionalNumber(_ key: String) throws(Malformed) -> Double? {
            guard let value = value(key) else { return nil }
            guard let number = value as? NSNumber, !Self.isBool(number), number.doubleValue.isFinite else {
                throw Malformed(reason: "'\(key)' must be a number")
            }
            return number.doubleValue
        }

        func strings(_ key: String) throws(Malformed) -> [String] {
            guard let list = value(key) as? [Any], list.allSatisfy({ $0 is String }) else {
                throw Malformed(reason: "'\(key)' must be a list of strings")
            }
            return list.map { $0 as! String }
        }

        /// JSON's true and false come back as numbers too; their type code tells them apart.
        static func isBool(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

        /// Absent: kept; null: removed; a value: set.
        func change<T>(_ key: String, _ read: (Any) throws(Malformed) -> T) throws(Malformed) -> AttributeChange<T> {
            guard let raw = object[key] else { return .keep }
            if raw is NSNull { return .remove }
            return .set(try read(raw))
        }

        func attributeChanges() throws(Malformed) -> AttributeChanges {
            var changes = AttributeChanges()
            changes.duration = try change("duration") { raw throws(Malformed) in
                if let number = raw as? NSNumber, !Self.isBool(number), let seconds = Int(exactly: number.doubleValue) { return seconds }
                if let text = raw as? String, case .success(let seconds) = DurationText.parse(Substring(text)) { return seconds }
                throw Malformed(reason: "'duration' must be seconds or a duration such as '10m'")
            }
            changes.target = try change("target") { raw throws(Malformed) in
                if let number = raw as? NSNumber, !Self.isBool(number) { return number.doubleValue }
                if let text = raw as? String, let value = NumberText.parse(Substring(text)) { return value }
                throw Malformed(reason: "'target' must be a number")
            }
            changes.unit = try change("unit") { raw throws(Malformed) in
                guard let text = raw as? String else { throw Malformed(reason: "'unit' must be a string") }
                return text
            }
            changes.days = try change("days") { raw throws(Malformed) in
                let words: [String]
                if let text = raw as? String { words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
                else if let list = raw as? [String] { words = list }
                else { throw Malformed(reason: "'days' must be a list of day names") }
                var days = Weekdays()
                for word in words {
                    guard let set = Weekdays.named(word) else { throw Malformed(reason: "'\(word)' is not a day: mon..sun, weekdays or weekends") }
                    days.formUnion(set)
                }
                return days
            }
            changes.perWeek = try change("perWeek") { raw throws(Malformed) in
                guard let number = raw as? NSNumber, !Self.isBool(number), let count = Int(exactly: number.doubleValue) else {
                    throw Malformed(reason: "'perWeek' must be a whole number")
                }
                return count
            }
            changes.note = try change("note") { raw throws(Malformed) in
                guard let text = raw as? String else { throw Malformed(reason: "'note' must be a string") }
                return text
            }
            return changes
        }
    }
}
