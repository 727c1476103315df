import Foundation
import RoutineKit

/// A `POST /api/edit` body: `{"version": N, "op": NAME, ...}`.
struct StudioEditRequest: Sendable {
    enum Action: Sendable {
        case op(RoutineEditOp)
        case undo, redo
    }

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
        switch try fields.string("op") {
        case "undo": action = .undo
        case "redo": action = .redo
        default: action = .op(try Self.op(fields))
        }
    }

    /// The op a body (or one member of a `together` body's `ops`) names.
    static func op(_ fields: Fields) throws(Malformed) -> RoutineEditOp {
        let name = try fields.string("op")
        switch name {
        case "addHabit":
            return .addHabit(
                id: try fields.optionalString("id"), title: try fields.string("title"), after: try fields.optionalString("after"),
                attributes: try fields.attributeChanges())
        case "addQuestion":
            return .addQuestion(
                id: try fields.optionalString("id"), text: try fields.string("text"), options: try fields.strings("options"),
                after: try fields.optionalString("after"), attributes: try fields.attributeChanges())
        case "connect":
            return .connect(from: try fields.string("from"), option: try fields.optionalInt("option"), to: try fields.string("to"))
        case "disconnect":
            return .disconnect(from: try fields.string("from"), option: try fields.optionalInt("option"), to: try fields.string("to"))
        case "setTitle": return .setTitle(id: try fields.string("id"), title: try fields.string("title"))
        case "setAttributes": return .setAttributes(id: try fields.string("id"), try fields.attributeChanges())
        case "addOption": return .addOption(id: try fields.string("id"), text: try fields.string("text"))
        case "removeOption": return .removeOption(id: try fields.string("id"), option: try fields.int("option"))
        case "moveOption": return .moveOption(id: try fields.string("id"), option: try fields.int("option"), to: try fields.int("to"))
        case "rename": return .rename(id: try fields.string("id"), newID: try fields.string("newId"))
        case "delete": return .delete(id: try fields.string("id"))
        case "setName": return .setName(try fields.string("name"))
        case "together":
            guard let list = fields.value("ops") as? [Any], let members = list as? [[String: Any]] else {
                throw Malformed(reason: "'ops' must be a list of ops")
            }
            var ops: [RoutineEditOp] = []
            for member in members {
                let inner = Fields(object: member)
                if try inner.string("op") == "together" { throw Malformed(reason: "'together' holds ops, not other groups") }
                ops.append(try op(inner))
            }
            return .together(ops)
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
                if let text = raw as? String {
                    switch DurationText.parse(Substring(text)) {
                    case .success(let seconds): return seconds
                    case .failure(let failure): throw Malformed(reason: "'\(text)' is not a duration such as '10m' or '1h30m': \(failure.reason)")
                    }
                }
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
                if let text = raw as? String {
                    words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                } else if let list = raw as? [String] {
                    words = list
                } else {
                    throw Malformed(reason: "'days' must be a list of day names")
                }
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
