import RoutineKit

/// A `POST /api/edit` body: `{"version": N, "op": NAME, ...}`, the op's members beside.
struct EditBody: RequestBody, Sendable {
    enum Action: Sendable {
        case op(RoutineEditOp)
        case undo, redo
        /// A card put by hand at `x`, `y` (its top-left corner), kept in the layout file.
        case move(id: String, x: Double, y: Double)
        /// Every card laid out afresh, the hand-placed ones too.
        case tidy
    }

    var version: Int
    var action: Action

    /// Every op's members: a body is refused only for a member no op has.
    static let members: Set<String> = [
        "version", "op", "id", "title", "text", "after", "options", "from", "option", "to", "newId", "name", "ops",
        "duration", "target", "unit", "atMost", "days", "perWeek", "note", "x", "y",
    ]
    static let name = "an edit"

    init(version: Int, action: Action) {
        self.version = version
        self.action = action
    }

    init(_ members: BodyMembers) throws(StudioError) {
        version = try members.int("version")
        switch try members.string("op") {
        case "undo": action = .undo
        case "redo": action = .redo
        case "tidy": action = .tidy
        case "move":
            let x = members.number("x")
            let y = members.number("y")
            guard let x, let y, x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else {
                throw .malformed("'x' and 'y' must be numbers within the drawing")
            }
            action = .move(id: try members.string("id"), x: x, y: y)
        default: action = .op(try Self.op(members))
        }
    }

    /// One op of a `together` body's `ops`.
    struct Inner: RequestBody {
        static var members: Set<String> { EditBody.members }
        static let name = "an op"
        let op: RoutineEditOp

        init(_ members: BodyMembers) throws(StudioError) {
            if try members.string("op") == "together" { throw .malformed("'together' holds ops, not other groups") }
            op = try EditBody.op(members)
        }
    }

    /// The op a body (or one member of a `together` body's `ops`) names.
    static func op(_ members: BodyMembers) throws(StudioError) -> RoutineEditOp {
        let name = try members.string("op")
        switch name {
        case "addHabit":
            return .addHabit(
                id: try members.optionalString("id"), title: try members.string("title"), after: try members.optionalString("after"),
                attributes: try members.attributeChanges())
        case "addQuestion":
            return .addQuestion(
                id: try members.optionalString("id"), text: try members.string("text"), options: try members.strings("options"),
                after: try members.optionalString("after"), attributes: try members.attributeChanges())
        case "connect":
            return .connect(from: try members.string("from"), option: try members.optionalInt("option"), to: try members.string("to"))
        case "disconnect":
            return .disconnect(from: try members.string("from"), option: try members.optionalInt("option"), to: try members.string("to"))
        case "setTitle": return .setTitle(id: try members.string("id"), title: try members.string("title"))
        case "setAttributes": return .setAttributes(id: try members.string("id"), try members.attributeChanges())
        case "addOption": return .addOption(id: try members.string("id"), text: try members.string("text"))
        case "removeOption": return .removeOption(id: try members.string("id"), option: try members.int("option"))
        case "moveOption": return .moveOption(id: try members.string("id"), option: try members.int("option"), to: try members.int("to"))
        case "rename": return .rename(id: try members.string("id"), newID: try members.string("newId"))
        case "delete": return .delete(id: try members.string("id"))
        case "setName": return .setName(try members.string("name"))
        case "together":
            guard let ops = try members.bodies("ops", Inner.self) else { throw .malformed("'ops' must be a list of ops") }
            return .together(ops.map(\.op))
        default: throw .malformed("'\(name)' is not an op")
        }
    }
}

extension BodyMembers {
    /// Absent: kept; null: removed; a value: set.
    func change<T: Sendable & Equatable>(_ name: String, _ read: () throws(StudioError) -> T) throws(StudioError) -> AttributeChange<T> {
        guard contains(name) else { return .keep }
        if !has(name) { return .remove }
        return .set(try read())
    }

    /// A member that is a number or a string: whichever it is.
    private func numberOrText(_ name: String) -> (number: Double?, text: String?) {
        (number(name), text(name))
    }

    func attributeChanges() throws(StudioError) -> AttributeChanges {
        var changes = AttributeChanges()
        changes.duration = try change("duration") { () throws(StudioError) in
            let (number, text) = numberOrText("duration")
            if let number, let seconds = Int(exactly: number) { return seconds }
            if let text {
                switch DurationText.parse(Substring(text)) {
                case .success(let seconds): return seconds
                case .failure(let failure): throw .malformed("'\(text)' is not a duration such as '10m' or '1h30m': \(failure.reason)")
                }
            }
            throw .malformed("'duration' must be seconds or a duration such as '10m'")
        }
        changes.target = try change("target") { () throws(StudioError) in
            let (number, text) = numberOrText("target")
            if let number { return number }
            if let text, let value = NumberText.parse(Substring(text)) { return value }
            throw .malformed("'target' must be a number")
        }
        changes.unit = try change("unit") { () throws(StudioError) in try string("unit") }
        changes.atMost = try optionalBool("atMost")
        changes.days = try change("days") { () throws(StudioError) in
            let words: [String]
            if let text = text("days") {
                words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            } else if let list = texts("days") {
                words = list
            } else {
                throw .malformed("'days' must be a list of day names")
            }
            var days = Weekdays()
            for word in words {
                guard let set = Weekdays.named(word) else { throw .malformed("'\(word)' is not a day: mon..sun, weekdays or weekends") }
                days.formUnion(set)
            }
            return days
        }
        changes.perWeek = try change("perWeek") { () throws(StudioError) in
            guard let count = try optionalInt("perWeek") else { throw .malformed("'perWeek' must be a whole number") }
            return count
        }
        changes.note = try change("note") { () throws(StudioError) in try string("note") }
        return changes
    }
}
