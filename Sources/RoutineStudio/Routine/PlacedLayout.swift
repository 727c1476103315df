import RoutineKit

/// A layout made without Graphviz: the picture shown last, with only what an edit changed
/// placed anew. A title, a note or an attribute resizes a card about its centre; an arrow
/// added or moved is drawn straight; a new card goes beside a card it joins. Everything else
/// keeps its place and its arrows' curves; a card grown over its neighbour moves right past it.
/// When a change cannot be placed well (a straight arrow across a card in a small routine,
/// whose arrows are otherwise routed round the cards), there is no placed layout and `dot`
/// lays the routine out.
extension StudioLayout {
    /// The arrowhead's length at `arrowsize=0.7`: where `dot` ends a spline before its tip.
    static let arrowhead = 7.0
    /// The room kept between a card that grew or was placed anew and its neighbours.
    static let placementGap = 14.0

    /// Each card's size by graph name, as `dot(for:reachable:pins:)` gives it to Graphviz.
    static func cardSizes(_ routine: Routine) -> [String: (width: Double, height: Double)] {
        var sizes: [String: (width: Double, height: Double)] = ["start": (0.22 * 72, 0.22 * 72), "end": (0.45 * 72, 0.45 * 72)]
        let byID = routine.indexByID()
        for (index, node) in routine.nodes.enumerated() where byID[node.id] == index {
            let size = size(of: node)
            if node.isHabit {
                sizes["n\(index)"] = (size.width, size.height)
            } else {
                let width = size.ports.reduce(0) { $0 + $1.rounded() }
                sizes["n\(index)"] = (width, titleHeight + portHeight)
            }
        }
        for k in routine.missingNames.indices { sizes["m\(k)"] = (1.6 * 72, 0.5 * 72) }
        return sizes
    }

    /// An arrow's identity across edits, by the keys of its ends (graph names change when a
    /// node is added before them; keys do not).
    private static func identity(_ arrow: Arrow, _ keys: [String: String]) -> String {
        let tail = keys[arrow.tail] ?? arrow.tail
        let head = keys[arrow.head] ?? arrow.head
        return "\(tail)\u{1}\(head)\u{1}\(arrow.kind.rawValue)\u{1}\(arrow.option ?? -1)\u{1}\(arrow.from ?? "")\u{1}"
            + "\(arrow.via ?? "")\u{1}\(arrow.viaOption ?? -1)"
    }

    /// The port an arrow leaves from: its node's ID and the answer's index.
    private static func port(of arrow: Arrow) -> (id: String, option: Int)? {
        if arrow.kind == .option, let from = arrow.from, let option = arrow.option { return (from, option) }
        if arrow.kind == .gather, let via = arrow.via, let option = arrow.viaOption { return (via, option) }
        return nil
    }

    /// `shown` (the layout last drawn, whose graph names `shownKeys` maps to keys) with the
    /// changes that made `routine` placed, the cards kept at `previous` centres or at their
    /// `places`; nil when the change needs `dot`. `arrows` and `ports` are the new routine's,
    /// as `dot(for:reachable:pins:)` made them. Linear in the cards and arrows, but for the
    /// few cards and arrows placed anew, each checked against every card.
    static func placed(
        from shown: StudioLayout, shownKeys: [String: String], to routine: Routine, arrows: [Arrow],
        ports: [String: [(x: Double, width: Double)]], previous: [String: Center], places: CardPlaces
    ) -> StudioLayout? {
        let keys = keys(routine)
        var oldByKey: [String: Box] = [:]
        for (name, box) in shown.boxes { if let key = shownKeys[name] { oldByKey[key] = box } }
        let sizes = cardSizes(routine)
        let present = Set(keys.values)
        // The cards drawn: every node, and the markers an arrow reaches.
        var names = Set(keys.keys.filter { $0.first == "n" })
        names.insert("start")
        for arrow in arrows { names.insert(arrow.head) }
        var layout = StudioLayout()
        layout.ports = ports
        layout.placed = true
        // Cards whose box is not the one drawn before: their arrows' ends are placed anew.
        var changed: [String: (old: Box, new: Box)] = [:]
        var moved: Set<String> = []
        var fresh: [String] = []
        for name in names.sorted() {
            guard let key = keys[name], let size = sizes[name] else { return nil }
            let center: Center
            if let place = places.points[key] {
                center = (place.x + size.width / 2, place.y + size.height / 2)
            } else if let seen = previous[key] {
                center = seen
            } else if let was = shownKeys[name], !present.contains(was), let seen = previous[was], oldByKey[was] != nil {
                // Renamed: the card in the same place in the file, whose ID is gone, keeps its
                // place; its arrows are drawn anew.
                center = seen
                moved.insert(name)
            } else {
                fresh.append(name)
                continue
            }
            let box = Box(x: center.0 - size.width / 2, y: center.1 - size.height / 2, width: size.width, height: size.height)
            layout.boxes[name] = box
            guard !moved.contains(name), let old = oldByKey[key] else {
                // Placed by hand but never drawn: nothing of it to keep.
                moved.insert(name)
                continue
            }
            let oldCenter = (old.x + old.width / 2, old.y + old.height / 2)
            if abs(oldCenter.0 - center.0) > 0.5 || abs(oldCenter.1 - center.1) > 0.5 {
                moved.insert(name)
            } else if abs(old.width - box.width) > 0.5 || abs(old.height - box.height) > 0.5 {
                changed[name] = (old, box)
            } else if let id = key.first == " " ? nil : key, let before = shown.ports[id], let now = ports[id],
                before.count != now.count || zip(before, now).contains(where: { abs($0.x - $1.x) > 0.5 || abs($0.width - $1.width) > 0.5 })
            {
                changed[name] = (old, box)
            }
        }
        if !fresh.isEmpty, !place(fresh, in: &layout, sizes: sizes, arrows: arrows) { return nil }
        // A card that grew over another moves right past it, and its arrows are drawn anew.
        for name in changed.keys.sorted() where layout.covers(name, gap: 1) {
            layout.moveRightPastCovered(name)
            changed[name] = nil
            moved.insert(name)
        }

        var oldArrows: [String: [Arrow]] = [:]
        for arrow in shown.arrows where !arrow.points.isEmpty { oldArrows[identity(arrow, shownKeys), default: []].append(arrow) }
        let routed = routine.nodeCount < pinnedSplineLimit
        layout.arrows = arrows
        for k in layout.arrows.indices {
            var arrow = layout.arrows[k]
            let id = identity(arrow, keys)
            if !moved.contains(arrow.tail), !moved.contains(arrow.head), !fresh.contains(arrow.tail), !fresh.contains(arrow.head),
                let kept = oldArrows[id]?.popLast()
            {
                arrow.points = kept.points
                arrow.tip = kept.tip
                if let (old, new) = changed[arrow.tail] {
                    let from = endPoint(arrow.points[0], old: old, new: new, port: port(of: arrow), before: shown.ports, after: ports)
                    let d = (from.0 - arrow.points[0].0, from.1 - arrow.points[0].1)
                    for i in 0..<min(2, arrow.points.count) { arrow.points[i] = (arrow.points[i].0 + d.0, arrow.points[i].1 + d.1) }
                }
                if let (old, new) = changed[arrow.head] {
                    let end = arrow.tip ?? arrow.points[arrow.points.count - 1]
                    let to = endPoint(end, old: old, new: new, port: nil, before: shown.ports, after: ports)
                    let d = (to.0 - end.0, to.1 - end.1)
                    if let tip = arrow.tip { arrow.tip = (tip.0 + d.0, tip.1 + d.1) }
                    for i in max(0, arrow.points.count - 2)..<arrow.points.count {
                        arrow.points[i] = (arrow.points[i].0 + d.0, arrow.points[i].1 + d.1)
                    }
                }
                layout.arrows[k] = arrow
                continue
            }
            guard let tail = layout.boxes[arrow.tail], let head = layout.boxes[arrow.head] else { return nil }
            var from = (tail.x + tail.width / 2, tail.y + tail.height)
            if let (id, option) = port(of: arrow), let cells = ports[id], cells.indices.contains(option) {
                from.0 = tail.x + cells[option].x + cells[option].width / 2
            }
            let below = head.y >= from.1
            let tip = (head.x + head.width / 2, below ? head.y : head.y + head.height)
            let length = ((tip.0 - from.0) * (tip.0 - from.0) + (tip.1 - from.1) * (tip.1 - from.1)).squareRoot()
            guard length > arrowhead else { return nil }
            let end = (tip.0 - (tip.0 - from.0) * arrowhead / length, tip.1 - (tip.1 - from.1) * arrowhead / length)
            // A straight arrow across a card hides where it goes; small routines route round them.
            if routed, layout.crossed(from: from, to: end, except: [arrow.tail, arrow.head]) { return nil }
            arrow.points = [
                from, (from.0 + (end.0 - from.0) / 3, from.1 + (end.1 - from.1) / 3),
                (from.0 + (end.0 - from.0) * 2 / 3, from.1 + (end.1 - from.1) * 2 / 3), end,
            ]
            arrow.tip = tip
            layout.arrows[k] = arrow
        }
        layout.fit(atLeast: shown)
        return layout
    }

    /// Where an arrow's end on a card that changed size goes: at the same answer's port, or
    /// at the same place relative to the card's edges.
    private static func endPoint(
        _ p: (Double, Double), old: Box, new: Box, port: (id: String, option: Int)?,
        before: [String: [(x: Double, width: Double)]], after: [String: [(x: Double, width: Double)]]
    ) -> (Double, Double) {
        let y = new.y + new.height / 2 + (p.1 - (old.y + old.height / 2)) * new.height / max(old.height, 1)
        if let port, let was = before[port.id], let now = after[port.id], was.indices.contains(port.option), now.indices.contains(port.option) {
            let offset = p.0 - (old.x + was[port.option].x + was[port.option].width / 2)
            return (new.x + now[port.option].x + now[port.option].width / 2 + offset, y)
        }
        return (new.x + new.width / 2 + (p.0 - (old.x + old.width / 2)) * new.width / max(old.width, 1), y)
    }

    /// Places `names` (cards new to the picture) below a card that leads to them, or above one
    /// they lead to, moved right past any card they would cover; a card that joins none goes
    /// right of the picture's top. False when one cannot be placed.
    private static func place(
        _ names: [String], in layout: inout StudioLayout, sizes: [String: (width: Double, height: Double)], arrows: [Arrow]
    ) -> Bool {
        var into: [String: [String]] = [:]
        var out: [String: [String]] = [:]
        for arrow in arrows where arrow.tail != arrow.head {
            into[arrow.head, default: []].append(arrow.tail)
            out[arrow.tail, default: []].append(arrow.head)
        }
        var waiting = names
        // Each pass places at least one card, or the rest go to the top right.
        while !waiting.isEmpty {
            var left: [String] = []
            for name in waiting {
                guard let size = sizes[name] else { return false }
                var center: Center?
                if let tail = into[name]?.first(where: { layout.boxes[$0] != nil }), let box = layout.boxes[tail] {
                    center = (box.x + box.width / 2, box.y + box.height + placementGap * 3 + size.height / 2)
                } else if let head = out[name]?.first(where: { layout.boxes[$0] != nil }), let box = layout.boxes[head],
                    box.y - placementGap * 3 - size.height >= 0
                {
                    center = (box.x + box.width / 2, box.y - placementGap * 3 - size.height / 2)
                }
                guard let center else {
                    left.append(name)
                    continue
                }
                layout.boxes[name] = Box(x: center.0 - size.width / 2, y: center.1 - size.height / 2, width: size.width, height: size.height)
                layout.moveRightPastCovered(name)
            }
            if left.count == waiting.count {
                for name in left {
                    guard let size = sizes[name] else { return false }
                    let right = layout.boxes.values.reduce(0) { max($0, $1.x + $1.width) }
                    layout.boxes[name] = Box(x: right + placementGap, y: 0, width: size.width, height: size.height)
                }
                break
            }
            waiting = left
        }
        return true
    }

    /// Moves the card right past each card it would cover, one card a pass.
    private mutating func moveRightPastCovered(_ name: String) {
        guard var box = boxes[name] else { return }
        for _ in 0...boxes.count {
            let covering = boxes.first { other, b in
                other != name && abs((b.x + b.width / 2) - (box.x + box.width / 2)) < (b.width + box.width) / 2 + Self.placementGap
                    && abs((b.y + b.height / 2) - (box.y + box.height / 2)) < (b.height + box.height) / 2 + Self.placementGap / 2
            }
            guard let covering else { break }
            box.x = covering.value.x + covering.value.width + Self.placementGap
            boxes[name] = box
        }
    }

    /// Whether the card overlaps another, `gap` points around it counted.
    private func covers(_ name: String, gap: Double) -> Bool {
        guard let box = boxes[name] else { return false }
        return boxes.contains { other, b in
            other != name && b.x < box.x + box.width + gap && box.x < b.x + b.width + gap && b.y < box.y + box.height + gap
                && box.y < b.y + b.height + gap
        }
    }

    /// Whether the segment from `a` to `b` passes through a card other than `except`.
    private func crossed(from a: (Double, Double), to b: (Double, Double), except: Set<String>) -> Bool {
        boxes.contains { name, box in
            guard !except.contains(name) else { return false }
            // Liang–Barsky: the part of the segment within the box's x and y ranges.
            var t0 = 0.0
            var t1 = 1.0
            let d = (b.0 - a.0, b.1 - a.1)
            for (p, q) in [(-d.0, a.0 - box.x), (d.0, box.x + box.width - a.0), (-d.1, a.1 - box.y), (d.1, box.y + box.height - a.1)] {
                if p == 0 {
                    if q < 0 { return false }
                } else {
                    let t = q / p
                    if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                    if t0 > t1 { return false }
                }
            }
            return true
        }
    }

    /// The picture's size: everything drawn fits, and it never shrinks below `shown`'s, so
    /// that the page does not jump.
    private mutating func fit(atLeast shown: StudioLayout) {
        var right = shown.width
        var bottom = shown.height
        for box in boxes.values {
            right = max(right, box.x + box.width + 4)
            bottom = max(bottom, box.y + box.height + 4)
        }
        for arrow in arrows {
            for p in arrow.points + (arrow.tip.map { [$0] } ?? []) {
                right = max(right, p.0 + 4)
                bottom = max(bottom, p.1 + 4)
            }
        }
        width = right
        height = bottom
    }
}
