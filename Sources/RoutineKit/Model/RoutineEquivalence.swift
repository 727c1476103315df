extension Routine {
    /// Whether two routines mean the same: name, start list, and every node with its
    /// attributes, options and arrows, in order. Source positions are ignored, so a routine
    /// read from `.rt` and its YAML conversion compare equal.
    public func isEquivalent(to other: Routine) -> Bool {
        func names(_ edges: [Edge], _ routine: Routine) -> [String] { edges.map { routine.name(of: $0.target) } }
        guard name == other.name, (startSpan == nil) == (other.startSpan == nil),
            names(explicitStart, self) == names(other.explicitStart, other), nodes.count == other.nodes.count
        else { return false }
        for (a, b) in zip(nodes, other.nodes) {
            guard a.kind == b.kind, a.id == b.id, a.title == b.title, a.note == b.note, a.duration == b.duration,
                a.target == b.target, a.days == b.days, a.perWeek == b.perWeek, names(a.next, self) == names(b.next, other),
                a.options.count == b.options.count
            else { return false }
            for (x, y) in zip(a.options, b.options) where x.text != y.text || names(x.next, self) != names(y.next, other) {
                return false
            }
        }
        return true
    }
}
