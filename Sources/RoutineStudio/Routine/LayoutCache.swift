import RoutineKit

/// Layouts by the DOT text they come from, the last few kept: an edit that changes no card's
/// size or arrow (a title of the same length, a note) runs no Graphviz, and neither does an
/// undo, a redo, or a file saved back to a shape it had a moment ago.
struct LayoutCache {
    /// Newest last.
    private var recent: [(dot: String, layout: StudioLayout)] = []
    static let kept = 8
    private let worker = GraphvizWorker()
    /// How long a layout may take; past it the routine is shown without its drawing.
    let limit: Duration
    /// Graphs that took longer than `limit`, newest last: not tried again on every look.
    private var tooSlow: [String] = []
    /// The picture last drawn and the keys of its graph names: an edit places what it changed
    /// on it (``StudioLayout/placed(from:shownKeys:to:arrows:ports:previous:places:)``).
    private var shown: (layout: StudioLayout, keys: [String: String])?

    /// The most cards drawn (``StudioLayout/drawLimit``; tests set another).
    let drawLimit: Int

    init(limit: Duration = LayoutCache.defaultLimit, drawLimit: Int = StudioLayout.drawLimit) {
        self.limit = limit
        self.drawLimit = drawLimit
    }

    /// Several times what a 2,000-node routine takes; a routine of 20,000 nodes takes `dot` longer.
    static let defaultLimit = Duration.seconds(5)

    /// A layout asked for: found in the cache, refused, or being made by `dot`.
    struct Pending {
        var dot: String
        var arrows: [StudioLayout.Arrow]
        var ports: [String: [(x: Double, width: Double)]]
        var found: Result<StudioLayout, Diagnostic>?
        var started = ContinuousClock.now
        /// The routine's name, for the message when the layout takes too long.
        var name: String
    }

    /// Starts laying out `routine`; `finish` gives the layout. In between, `dot` works on
    /// another core. With cards drawn before (`previous`, their centres by key), what the
    /// change made is placed on the picture shown, without Graphviz, where it can be.
    mutating func begin(
        for routine: Routine, previous: [String: StudioLayout.Center] = [:], places: CardPlaces = CardPlaces(),
        phases: inout StudioPhases
    ) -> Pending {
        if routine.nodeCount > drawLimit {
            let refused = Diagnostic.layoutTooLarge(routine.name, cards: routine.nodeCount, limit: drawLimit)
            return Pending(dot: "", arrows: [], ports: [:], found: .failure(refused), name: routine.name)
        }
        let (text, arrows, ports) = StudioLayout.dot(for: routine, reachable: nil)
        phases.end("dot-text")
        if !previous.isEmpty, let shown,
            let placed = StudioLayout.placed(
                from: shown.layout, shownKeys: shown.keys, to: routine, arrows: arrows, ports: ports, previous: previous, places: places)
        {
            phases.end("placed")
            return Pending(dot: text, arrows: arrows, ports: ports, found: .success(placed), name: routine.name)
        }
        return begin(text, arrows: arrows, ports: ports, name: routine.name, phases: &phases)
    }

    private mutating func begin(
        _ text: String, arrows: [StudioLayout.Arrow], ports: [String: [(x: Double, width: Double)]], name: String,
        phases: inout StudioPhases
    ) -> Pending {
        var pending = Pending(dot: text, arrows: arrows, ports: ports, name: name)
        if tooSlow.contains(text) {
            pending.found = .failure(tooSlowDiagnostic(pending))
        } else if let index = recent.lastIndex(where: { $0.dot == text }) {
            let entry = recent.remove(at: index)
            recent.append(entry)
            pending.found = .success(entry.layout)
        } else if let failure = worker.begin(Array(text.utf8)) {
            pending.found = .failure(failure)
        }
        phases.end("dot-start")
        return pending
    }

    /// `fresh` (the layout `dot` made of `routine`) with the cards seen before kept where they
    /// were and the cards placed by hand where they were put; `fresh` itself when no card moves.
    mutating func stable(
        _ fresh: StudioLayout, of routine: Routine, previous: [String: StudioLayout.Center], places: CardPlaces, phases: inout StudioPhases
    ) -> StudioLayout {
        let keys = StudioLayout.keys(routine)
        shown = (fresh, keys)
        guard !fresh.placed, let pins = StudioLayout.pins(keys, fresh: fresh, previous: previous, places: places) else { return fresh }
        let (text, arrows, ports) = StudioLayout.dot(for: routine, reachable: nil, pins: pins)
        let pending = begin(text, arrows: arrows, ports: ports, name: routine.name, phases: &phases)
        guard case .success(var pinned) = finish(pending, phases: &phases) else { return fresh }
        pinned.settle(on: pins)
        phases.end("pinned")
        shown = (pinned, keys)
        return pinned
    }

    /// Starts Graphviz before the first layout is asked for (the page's first load).
    func prepare() { worker.prepare() }

    mutating func finish(_ pending: Pending, phases: inout StudioPhases) -> Result<StudioLayout, Diagnostic> {
        if let found = pending.found { return found }
        guard let output = worker.finish(within: limit) else {
            tooSlow.append(pending.dot)
            if tooSlow.count > 2 { tooSlow.removeFirst() }
            return .failure(tooSlowDiagnostic(pending))
        }
        phases.end("wait-dot")
        phases.add("dot", since: pending.started)
        let made = output.flatMap { bytes -> Result<StudioLayout, Diagnostic> in
            guard var layout = StudioLayout.parse(bytes, arrows: pending.arrows) else {
                return .failure(.unwritable("the layout", reason: "Graphviz's json0 output could not be read"))
            }
            layout.ports = pending.ports
            return .success(layout)
        }
        phases.end("layout-read")
        if case .success(let layout) = made {
            recent.append((pending.dot, layout))
            if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
        }
        return made
    }

    private func tooSlowDiagnostic(_ pending: Pending) -> Diagnostic {
        .layoutTooSlow(pending.name, seconds: max(1, Int(limit.components.seconds)))
    }
}
