import RoutineKit

/// Where a person put cards by hand, kept beside the routine in `NAME.rt.layout` so that the
/// routine's text stays free of coordinates: a line per card, `ID X Y` (the card's top-left
/// corner in the drawing's points), sorted by ID so that the file diffs well.
struct CardPlaces: Equatable, Sendable {
    struct Point: Equatable, Sendable {
        var x: Double
        var y: Double
    }

    var points: [String: Point] = [:]

    static func path(for routine: String) -> String { routine + ".layout" }

    static let header = "# card places of the routine studio: ID X Y, the card's top-left corner; Tidy empties it\n"

    /// Reads a layout file. Blank lines and `#` comments are skipped; any other line that is
    /// not `ID X Y` makes the whole file unread, so that half a file never places half the cards.
    static func parse(_ bytes: [UInt8], path: String) -> Result<CardPlaces, Diagnostic> {
        var places = CardPlaces()
        var number = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 3 else {
                return .failure(.damagedCardPlaces(path, line: number, reason: "expected 'ID X Y', found \(fields.count) fields"))
            }
            guard let x = Double(fields[1]), let y = Double(fields[2]), abs(x) < 1e6, abs(y) < 1e6 else {
                return .failure(.damagedCardPlaces(path, line: number, reason: "'\(fields[1]) \(fields[2])' is not a place in the drawing"))
            }
            places.points[String(fields[0])] = Point(x: x, y: y)
        }
        return .success(places)
    }

    /// The file's text: the header, then a line per card sorted by ID.
    var text: [UInt8] {
        var out = Self.header
        for id in points.keys.sorted() {
            let point = points[id]!
            out += "\(id) \(Self.number(point.x)) \(Self.number(point.y))\n"
        }
        return Array(out.utf8)
    }

    /// Whole points when the place is whole, as it nearly always is, else one decimal.
    private static func number(_ value: Double) -> String {
        let rounded = round1(value)
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Only the cards `ids` names: a node deleted or renamed elsewhere loses its place.
    func keeping(_ ids: Set<String>) -> CardPlaces { CardPlaces(points: points.filter { ids.contains($0.key) }) }
}
