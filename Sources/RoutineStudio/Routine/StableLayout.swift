import RoutineKit

/// A picture that stays put: after an edit, the cards a person has seen keep their places and
/// only new cards are placed, beside the cards they join; cards placed by hand stay where
/// they were put. Graphviz then only routes the arrows between the pinned cards.
extension StudioLayout {
    typealias Center = (Double, Double)

    /// The key a graph name keeps across edits: a node's ID (which has no spaces), or a
    /// marker's name, which starts with a space so that no ID is taken for it.
    static func keys(_ routine: Routine) -> [String: String] {
        var keys: [String: String] = ["start": " start", "end": " end"]
        let byID = routine.indexByID()
        for (index, node) in routine.nodes.enumerated() where byID[node.id] == index { keys["n\(index)"] = node.id }
        for (k, name) in routine.missingNames.enumerated() { keys["m\(k)"] = " missing \(name)" }
        return keys
    }

    /// Each card's centre by key, to be kept by the next layout.
    func centers(_ keys: [String: String]) -> [String: Center] {
        var out: [String: Center] = [:]
        for (name, box) in boxes { if let key = keys[name] { out[key] = (box.x + box.width / 2, box.y + box.height / 2) } }
        return out
    }

    /// Where each card of `fresh` (a new `dot` layout) goes, by graph name; nil when `fresh`
    /// stands as it is (nothing seen before, nothing placed by hand, or no card moved).
    static func pins(
        _ keys: [String: String], fresh: StudioLayout, previous: [String: Center], places: CardPlaces
    ) -> [String: Center]? {
        var pins: [String: Center] = [:]
        var unplaced: [String] = []
        for (name, box) in fresh.boxes {
            guard let key = keys[name] else { continue }
            if let place = places.points[key] {
                pins[name] = (place.x + box.width / 2, place.y + box.height / 2)
            } else if let center = previous[key] {
                pins[name] = center
            } else {
                unplaced.append(name)
            }
        }
        func center(_ name: String) -> Center {
            let box = fresh.boxes[name]!
            return (box.x + box.width / 2, box.y + box.height / 2)
        }
        if pins.isEmpty { return nil }
        separate(&pins, fresh: fresh, places: places, keys: keys)
        if unplaced.isEmpty, pins.allSatisfy({ abs($0.value.0 - center($0.key).0) < 0.5 && abs($0.value.1 - center($0.key).1) < 0.5 }) {
            return nil
        }
        var neighbours: [String: [String]] = [:]
        for arrow in fresh.arrows where arrow.tail != arrow.head {
            neighbours[arrow.head, default: []].append(arrow.tail)
            neighbours[arrow.tail, default: []].append(arrow.head)
        }
        // Top to bottom, so that a chain of new cards follows the first one's place.
        unplaced.sort { center($0).1 < center($1).1 || (center($0).1 == center($1).1 && $0 < $1) }
        let gap = 14.0
        for name in unplaced {
            let here = center(name)
            let box = fresh.boxes[name]!
            // Where `dot` put it relative to a card it joins that has a place already; where
            // `dot` put it when nothing was drawn before (the studio started again on cards
            // placed by hand) or it joins no such card.
            var placed = here
            if !previous.isEmpty, let anchor = neighbours[name]?.first(where: { pins[$0] != nil }), let at = pins[anchor] {
                let was = center(anchor)
                placed = (here.0 + at.0 - was.0, here.1 + at.1 - was.1)
            }
            // Moved right past every card it would cover: each pass passes one card.
            for _ in 0...pins.count {
                let covered = pins.first { key, p in
                    guard let other = fresh.boxes[key] else { return false }
                    return abs(p.0 - placed.0) < (other.width + box.width) / 2 + gap
                        && abs(p.1 - placed.1) < (other.height + box.height) / 2 + gap / 2
                }
                guard let covered, let other = fresh.boxes[covered.key] else { break }
                placed.0 = covered.value.0 + (other.width + box.width) / 2 + gap
            }
            pins[name] = placed
        }
        return pins
    }

    /// Cards kept at their centres may cover each other once one has grown (a longer title, an
    /// answer added): each card not placed by hand that covers a card settled before it, left to
    /// right in rows, moves right past it. Cards are looked up by rows of `band` points, so the
    /// work is the cards times their neighbours in a row, not the cards squared.
    private static func separate(_ pins: inout [String: Center], fresh: StudioLayout, places: CardPlaces, keys: [String: String]) {
        let band = 100.0
        let gap = 14.0
        func byHand(_ name: String) -> Bool { keys[name].map { places.points[$0] != nil } ?? false }
        let order = pins.keys.filter { fresh.boxes[$0] != nil }.sorted { a, b in
            let (pa, pb) = (pins[a]!, pins[b]!)
            if byHand(a) != byHand(b) { return byHand(a) }
            let (ra, rb) = ((pa.1 / band).rounded(.down), (pb.1 / band).rounded(.down))
            return ra != rb ? ra < rb : pa.0 != pb.0 ? pa.0 < pb.0 : a < b
        }
        var rows: [Int: [String]] = [:]
        for name in order {
            let box = fresh.boxes[name]!
            var at = pins[name]!
            let row = Int((at.1 / band).rounded(.down))
            if !byHand(name) {
                // Each pass passes one card; a card can pass no more cards than there are.
                for _ in 0...order.count {
                    var covered: (Center, Box)?
                    for r in (row - 1)...(row + 1) {
                        for other in rows[r] ?? [] {
                            let (p, b) = (pins[other]!, fresh.boxes[other]!)
                            if abs(p.0 - at.0) < (b.width + box.width) / 2 + gap / 2 && abs(p.1 - at.1) < (b.height + box.height) / 2 + gap / 2 {
                                covered = (p, b)
                            }
                        }
                    }
                    guard let (p, b) = covered else { break }
                    at.0 = p.0 + (b.width + box.width) / 2 + gap
                }
                pins[name] = at
            }
            rows[row, default: []].append(name)
        }
    }

    /// A layout of pinned cards put back where they were pinned (`neato` centres its picture),
    /// with the whole picture moved right or down only when a card would start off its edge.
    mutating func settle(on pins: [String: Center]) {
        guard let pinned = pins.first(where: { boxes[$0.key] != nil }), let box = boxes[pinned.key] else { return }
        var dx = pinned.value.0 - (box.x + box.width / 2)
        var dy = pinned.value.1 - (box.y + box.height / 2)
        var left = Double.infinity
        var top = Double.infinity
        for box in boxes.values {
            left = min(left, box.x + dx)
            top = min(top, box.y + dy)
        }
        // `dot`'s own pictures start at 0: a card is never moved to make a margin.
        let margin = 4.0
        if left < 0 { dx -= left }
        if top < 0 { dy -= top }
        var right = 0.0
        var bottom = 0.0
        for (name, box) in boxes {
            let moved = Box(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
            boxes[name] = moved
            right = max(right, moved.x + moved.width)
            bottom = max(bottom, moved.y + moved.height)
        }
        for k in arrows.indices {
            arrows[k].points = arrows[k].points.map { ($0.0 + dx, $0.1 + dy) }
            arrows[k].tip = arrows[k].tip.map { ($0.0 + dx, $0.1 + dy) }
            for p in arrows[k].points + (arrows[k].tip.map { [$0] } ?? []) {
                right = max(right, p.0)
                bottom = max(bottom, p.1)
            }
        }
        width = right + margin
        height = bottom + margin
    }
}
