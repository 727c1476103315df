import RoutineKit

/// A routine laid out by Graphviz for the page: a box per card, and each arrow's spline, in
/// points with y pointing down (Graphviz's points up). Cards have the sizes the page draws
/// them at, so a card's box is where it is drawn and an answer's port is where its arrow starts.
struct StudioLayout: Sendable {
    struct Box: Sendable {
        var x: Double, y: Double, width: Double, height: Double
        var json: [(String, JSONValue)] {
            [("x", .number(round1(x))), ("y", .number(round1(y))), ("width", .number(round1(width))), ("height", .number(round1(height)))]
        }
    }

    struct Arrow: Sendable {
        enum Kind: String, Sendable { case start, next, option, gather }
        var from: String?
        var to: String
        var option: Int?
        var kind: Kind
        var points: [(Double, Double)] = []
        var tip: (Double, Double)?
        /// The graph names of its ends, for placing a new card beside the cards it joins.
        var tail = "", head = ""
        /// Where a gather is drawn from: the node, and the answer, where a branch ends (``GatherEnds``).
        var via: String?
        var viaOption: Int?
    }

    var width: Double = 0
    var height: Double = 0
    /// By graph name: `n<index>`, `end`, `start`, `m<k>` for a missing name.
    var boxes: [String: Box] = [:]
    var arrows: [Arrow] = []
    /// Each question's port cells, left to right, as offsets and widths within its card.
    var ports: [String: [(x: Double, width: Double)]] = [:]
    /// Made from the picture shown before, without Graphviz (``placed(from:shownKeys:to:arrows:ports:previous:places:)``):
    /// its cards are where they stay.
    var placed = false

    static let habitHeight = 52.0
    static let plainHabitHeight = 38.0
    static let titleHeight = 36.0
    static let portHeight = 28.0

    /// The card's size, from its texts: about 7 points a character at the page's font size.
    static func size(of node: RoutineNode) -> (width: Double, height: Double, ports: [Double]) {
        func textWidth(_ text: String, _ perCharacter: Double) -> Double { Double(text.count) * perCharacter }
        if node.isHabit {
            let details = GraphView.details(node) ?? ""
            let width = min(max(max(textWidth(node.title, 8.4), textWidth(details, 6.8)) + 36, 150), 300)
            return (width, details.isEmpty ? plainHabitHeight : habitHeight, [])
        }
        var ports = node.options.map { min(max(textWidth($0.text, 6.6) + 24, 56), 160) }
        let titleWidth = min(max(textWidth(node.title, 8.4) + 40, 170), 340)
        let sum = ports.reduce(0, +)
        if sum < titleWidth { ports = ports.map { $0 * titleWidth / max(sum, 1) } }
        return (max(titleWidth, sum), titleHeight + portHeight, ports)
    }

    /// Below this many nodes `neato` routes the arrows between pinned cards as splines around
    /// them: 0.3 s of CPU for 60 cards, 1.5 s for 100, 4.4 s for 150 and 10.6 s for 200, so
    /// from 100 on, where the 5 s limit comes near on a loaded machine, they get straight
    /// arrows, which take milliseconds. `polyline` routes around the cards as `spline` does,
    /// in the same time (BENCHMARKS.md, "The studio").
    static let pinnedSplineLimit = 100

    /// The most cards the studio draws. Past it Graphviz is not asked (a 20,000-node routine
    /// would keep it busy for minutes): the routine opens at once, with its outline.
    static let drawLimit = 2_000

    /// How many nodes make a routine large enough for `dot` to spend less effort on it.
    static let largeRoutine = 100

    /// The DOT text Graphviz lays out, and the arrows in the order of their `id`s.
    /// `nslimit=1` caps the network simplex that places cards across a rank at one pass per
    /// node: it halves `dot`'s time on a 200-node routine (120 to 60 ms of CPU) and draws a
    /// narrower picture of the same ranks and order (BENCHMARKS.md, "The studio"). From
    /// `largeRoutine` nodes on, where an edit waits for `dot`, the placement takes a fifth of
    /// that (`nslimit=0.2`) and the crossing minimisation stops sooner (`mclimit=0.3`): about
    /// 12 ms less on a 200-node routine for a picture a few percent wider with the same
    /// crossings. Smaller routines lay out in a few milliseconds and keep the better placement.
    ///
    /// With `pins` (card centres by graph name, in the page's points), every card is pinned
    /// where it is given and Graphviz's `neato` only routes the arrows between them: the
    /// picture a person has seen stays put (``StudioLayout/pins(_:fresh:previous:places:)``).
    ///
    /// Without `text`, only the arrows: what a routine shown without its drawing still says.
    static func dot(for routine: Routine, reachable: [Bool]?, pins: [String: (Double, Double)]? = nil, text: Bool = true) -> (
        text: String, arrows: [Arrow], ports: [String: [(x: Double, width: Double)]]
    ) {
        let effort = routine.nodeCount >= largeRoutine ? "nslimit=0.2, mclimit=0.3" : "nslimit=1"
        var out =
            pins == nil
            ? "digraph { graph [rankdir=TB, nodesep=0.35, ranksep=0.55, splines=spline, outputorder=edgesfirst, \(effort)];\n"
            : "digraph { graph [layout=neato, splines=\(routine.nodeCount < pinnedSplineLimit ? "spline" : "line"), overlap=true, outputorder=edgesfirst];\n"
        // Graphviz reads a pinned place in inches, its y pointing up.
        func pin(_ name: String) -> String {
            guard let point = pins?[name] else { return "" }
            return ", pos=\"\(point.0 / 72),\(-point.1 / 72)!\""
        }
        out += "  node [shape=box, fixedsize=true, label=\"\"]; edge [arrowsize=0.7];\n"
        var arrows: [Arrow] = []
        var ports: [String: [(x: Double, width: Double)]] = [:]
        let nodes = routine.nodes
        let byID = routine.indexByID()
        var usesEnd = false
        var missing: Set<Int> = []
        for index in nodes.indices where text && byID[nodes[index].id] == index {
            let node = nodes[index]
            let size = size(of: node)
            if node.isHabit {
                out += "  n\(index) [width=\(size.width / 72), height=\(size.height / 72)\(pin("n\(index)"))];\n"
            } else {
                var cells = ""
                var x = 0.0
                var list: [(x: Double, width: Double)] = []
                for (k, width) in size.ports.enumerated() {
                    cells += "<td port=\"o\(k)\" fixedsize=\"true\" width=\"\(Int(width.rounded()))\" height=\"\(Int(portHeight))\"></td>"
                    list.append((x, width.rounded()))
                    x += width.rounded()
                }
                ports[node.id] = list
                let total = Int(x)
                out +=
                    "  n\(index) [shape=plain, fixedsize=false\(pin("n\(index)")), label=<<table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"0\">"
                out +=
                    "<tr><td colspan=\"\(max(size.ports.count, 1))\" fixedsize=\"true\" width=\"\(total)\" height=\"\(Int(titleHeight))\"></td></tr>"
                out += "<tr>\(cells)</tr></table>>];\n"
            }
        }
        func target(_ edge: Edge) -> String? {
            switch edge.target {
            case .node(let i): return byID[routine.id(of: i)].map { "n\($0)" }
            case .end:
                usesEnd = true
                return "end"
            case .missing(let k):
                missing.insert(k)
                return "m\(k)"
            }
        }
        func name(_ edge: Edge) -> String { routine.name(of: edge.target) }
        func add(_ tail: String, _ edge: Edge, _ arrow: Arrow, extra: String = "") {
            guard let head = target(edge) else { return }
            if text { out += "  \(tail) -> \(head) [id=\"e\(arrows.count)\"\(extra)];\n" }
            var arrow = arrow
            arrow.tail = String(tail.prefix { $0 != ":" })
            arrow.head = head
            arrows.append(arrow)
        }
        out += "  start [shape=circle, width=0.22, height=0.22\(pin("start"))];\n"
        for edge in routine.start { add("start", edge, Arrow(from: nil, to: name(edge), option: nil, kind: .start)) }
        var walk = GatherEnds.Walk(routine)
        for index in nodes.indices where byID[nodes[index].id] == index {
            let node = nodes[index]
            for (k, option) in node.options.enumerated() {
                for edge in option.next {
                    add("n\(index):o\(k):s", edge, Arrow(from: node.id, to: name(edge), option: k, kind: .option))
                }
            }
            guard node.isQuestion else {
                for edge in node.next { add("n\(index)", edge, Arrow(from: node.id, to: name(edge), option: nil, kind: .next)) }
                continue
            }
            // A gather starts where the branches end; from the question only when none does.
            var tails: [(tail: String, via: String?, option: Int?)] = []
            for source in walk.sources(of: index) where byID[routine.id(of: source.node)] == source.node {
                switch source {
                case .node(let n): tails.append(("n\(n)", routine.id(of: n), nil))
                case .option(let n, let k): tails.append(("n\(n):o\(k):s", routine.id(of: n), k))
                }
            }
            if tails.isEmpty { tails = [("n\(index)", nil, nil)] }
            for edge in node.next {
                for (tail, via, option) in tails {
                    var arrow = Arrow(from: node.id, to: name(edge), option: nil, kind: .gather)
                    (arrow.via, arrow.viaOption) = (via, option)
                    add(tail, edge, arrow, extra: ", style=dashed")
                }
            }
        }
        if usesEnd { out += "  end [shape=circle, width=0.45, height=0.45\(pin("end"))];\n" }
        for k in missing.sorted() { out += "  m\(k) [width=1.6, height=0.5\(pin("m\(k)"))];\n" }
        out += "}\n"
        return (out, arrows, ports)
    }

    /// The layout in `dot -Tjson0`'s output, for the arrows `dot(for:reachable:)` named.
    static func parse(_ bytes: [UInt8], arrows: [Arrow]) -> StudioLayout? {
        typealias Raw = ArraySlice<UInt8>
        var bb: Raw?
        var objects: [(name: String?, pos: Raw?, width: Raw?, height: Raw?)] = []
        var edges: [(id: Raw?, pos: Raw?)] = []
        var reader = JSONPullReader(bytes)
        let read = reader.readObject { reader, key in
            if key.is("bb") {
                bb = reader.raw()
                return bb != nil
            }
            if key.is("objects") {
                return reader.array { reader in
                    var object: (name: String?, pos: Raw?, width: Raw?, height: Raw?) = (nil, nil, nil, nil)
                    defer { objects.append(object) }
                    return reader.object { reader, key in
                        if key.is("name") {
                            object.name = reader.string()
                        } else if key.is("pos") {
                            object.pos = reader.raw()
                        } else if key.is("width") {
                            object.width = reader.raw()
                        } else if key.is("height") {
                            object.height = reader.raw()
                        } else {
                            return reader.skip()
                        }
                        return true
                    }
                }
            }
            if key.is("edges") {
                return reader.array { reader in
                    var edge: (id: Raw?, pos: Raw?) = (nil, nil)
                    defer { edges.append(edge) }
                    return reader.object { reader, key in
                        if key.is("id") { edge.id = reader.raw() } else if key.is("pos") { edge.pos = reader.raw() } else { return reader.skip() }
                        return true
                    }
                }
            }
            return reader.skip()
        }
        guard read, let bb else { return nil }
        var numbers = NumberScanner(bb)
        guard let left = numbers.next(), let bottom = numbers.next(), let right = numbers.next(), let top = numbers.next() else {
            return nil
        }
        var layout = StudioLayout()
        layout.width = right - left
        layout.height = top - bottom
        // Graphviz's y points up from the bottom; the page's points down from the top. `dot`'s
        // box starts at 0,0; `neato`'s is centred on its pinned cards.
        func point(_ scanner: inout NumberScanner) -> (Double, Double)? {
            guard let x = scanner.next(), let y = scanner.next() else { return nil }
            return (x - left, top - y)
        }
        for object in objects {
            guard let name = object.name, let pos = object.pos, let w = object.width, let h = object.height else { continue }
            var scanner = NumberScanner(pos)
            guard let center = point(&scanner), let width = NumberScanner(w).first, let height = NumberScanner(h).first else { continue }
            layout.boxes[name] = Box(x: center.0 - width * 36, y: center.1 - height * 36, width: width * 72, height: height * 72)
        }
        layout.arrows = arrows
        for edge in edges {
            guard let id = edge.id, id.first == UInt8(ascii: "e"), let number = NumberScanner(id.dropFirst()).first,
                let k = Int(exactly: number), arrows.indices.contains(k), let pos = edge.pos
            else { continue }
            // "e,x,y" is where the arrowhead ends, "s,x,y" where a tail mark would start; the
            // rest are the spline's points.
            var scanner = NumberScanner(pos)
            while let mark = scanner.mark() {
                let p = point(&scanner)
                switch mark {
                case UInt8(ascii: "e"): layout.arrows[k].tip = p
                case UInt8(ascii: "s"): continue
                default: if let p { layout.arrows[k].points.append(p) }
                }
            }
        }
        return layout
    }
}

func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
