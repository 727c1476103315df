extension DayOverview {
    /// The work Today spends finding the habits every way runs: tens of milliseconds, which
    /// routines of hundreds of nodes never reach.
    public static let todayWorkBudget = 5_000_000

    /// The day of `routine` by ``DayRules``, as `today` and the studio's Today view show it.
    public static func of(_ routine: Routine, facts: DayFacts) -> DayOverview {
        // Today is asked for often (status bars poll it), so the search for what every way
        // runs gets a small budget: past it, a habit is "maybe" rather than "due".
        let unconditional = (try? PathExplorer(routine, workBudget: todayWorkBudget).nodesOnEveryWay()) ?? []
        let onAWay = RoutineGraph(routine).reachable(from: routine.start.compactMap(\.target.nodeIndex))
        return DayRules(routine: routine, facts: facts, unconditional: unconditional, onAWay: onAWay).overview()
    }

    /// The counts as JSON members: what `today --json` gives per routine and in total, and
    /// what the studio's Today view reads.
    public var countMembers: [(String, JSONValue)] {
        [
            ("due", .int(due)), ("done", .int(done)), ("skipped", .int(skipped)), ("pending", .int(pending)), ("maybe", .int(maybe)),
            ("percentage", .int(percentage)),
        ]
    }

    /// The day of `routine` as one JSON object: the counts, then every habit with its state,
    /// what did it and when, its value and target, or why it is not due.
    public func json(_ routine: Routine) -> JSONValue {
        var members: [(String, JSONValue)] = [("routine", .string(routine.name)), ("date", .string(date.description))]
        members += countMembers
        if let dayOff { members.append(("dayOff", Self.json(dayOff))) }
        members.append(("habits", .array(habits.map { Self.json($0.node, $0.state, routine) })))
        return .object(members)
    }

    /// `{"reason", "text"}`: the reason given (or null) and what the views say, "day off (sick)".
    static func json(_ dayOff: DayOffNote) -> JSONValue {
        .object([("reason", dayOff.reason.map(JSONValue.string) ?? .null), ("text", .string(dayOff.text))])
    }

    static func json(_ index: Int, _ state: HabitState, _ routine: Routine) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("node", .string(routine.id(of: index))), ("title", .string(routine.title(of: index))), ("status", .string(state.word)),
        ]
        switch state {
        case .done(let by), .skipped(let by):
            members.append(("by", .string(by.source.rawValue)))
            members.append(("at", .string(by.time)))
            if let value = by.value { members.append(("value", .number(value))) }
            if by.seconds > 0 { members.append(("seconds", .number((by.seconds * 1000).rounded() / 1000))) }
        case .notDue(let reason):
            members.append(("reason", .string(reason.rawValue)))
        case .pending, .maybe:
            break
        }
        if let target = routine.target(of: index) {
            members.append(("target", .number(target.amount)))
            if let unit = target.unit { members.append(("unit", .string(unit))) }
            if target.atMost { members.append(("atMost", .bool(true))) }
            // What the views say, made here once: "at most 2 cups", "3 · over the limit of 2 cups".
            members.append(("targetText", .string(target.dayText)))
            if case .done(let by) = state, let value = by.value {
                members.append(("valueText", .string(target.valueText(value))))
                if !target.isMet(by: value) { members.append((target.atMost ? "overLimit" : "underTarget", .bool(true))) }
            }
        }
        return .object(members)
    }
}

extension TargetValue {
    /// The target as every view says it, its bound in words: `target 8 glasses`, `at most 2 cups`.
    public var dayText: String { (atMost ? "at most " : "target ") + amountText + (unit.map { " " + $0 } ?? "") }

    /// A value given against the target, as every view says it: `5 of 8 glasses`, and for a
    /// limit `1 · at most 2 cups` at or under it and `3 · over the limit of 2 cups` over it
    /// (a limit is not a goal to reach: a value over it is shown as over, not as progress).
    public func valueText(_ value: Double) -> String {
        let unitText = unit.map { " " + $0 } ?? ""
        let given = NumberText.format(value)
        guard atMost else { return given + " of " + amountText + unitText }
        return given + " · " + limitText(value) + unitText
    }

    /// A value against the target in a run's one-line summary, without the unit: `5/8`, and
    /// for a limit `1 (at most 2)` or `3 (over the limit of 2)`, in ``valueText(_:)``'s words.
    public func shortValueText(_ value: Double) -> String {
        let given = NumberText.format(value)
        guard atMost else { return given + "/" + amountText }
        return given + " (" + limitText(value) + ")"
    }

    /// `at most 2` at or under a limit, `over the limit of 2` over it.
    private func limitText(_ value: Double) -> String {
        (isMet(by: value) ? "at most " : "over the limit of ") + amountText
    }
}

/// Several routines' days added up, for a status bar that shows them as one.
public struct DayTotals: Sendable {
    public var days: [(routine: Routine, overview: DayOverview)] = []

    public init() {}

    public var due: Int { days.reduce(0) { $0 + $1.overview.due } }
    public var done: Int { days.reduce(0) { $0 + $1.overview.done } }
    public var pending: Int { days.reduce(0) { $0 + $1.overview.pending } }

    /// Done over due, 0...100; 100 when nothing is due.
    public var percentage: Int { due == 0 ? 100 : Int((Double(done) * 100 / Double(due)).rounded()) }

    /// `off` when every routine's day is a day off, `done` when nothing due is left, `none`
    /// when nothing due is done yet, else `partial`: the classes a status bar styles.
    public var statusClass: String {
        if isDayOff { return "off" }
        return pending == 0 ? "done" : done == 0 ? "none" : "partial"
    }

    /// Whether every routine's day is a day off (and there is at least one routine).
    public var isDayOff: Bool { !days.isEmpty && days.allSatisfy { $0.overview.dayOff != nil } }

    /// What a bar says of the days off: "day off (sick)" when every routine is off (their
    /// reasons, each once), nil otherwise.
    public var dayOffText: String? {
        guard isDayOff else { return nil }
        var reasons: [String] = []
        for day in days { if let reason = day.overview.dayOff?.reason, !reasons.contains(reason) { reasons.append(reason) } }
        return DayOffNote(reason: reasons.isEmpty ? nil : reasons.joined(separator: ", ")).text
    }

    /// The routines whose day is a day off, with what to say of each: "Name: day off (sick)".
    public var daysOff: [(routine: String, text: String)] {
        days.compactMap { day in day.overview.dayOff.map { (day.routine.name, $0.text) } }
    }

    /// `today --json`, and the studio's `GET /api/today`: the totals, then each routine's day.
    public func json(date: CalendarDate) -> JSONValue {
        var members: [(String, JSONValue)] = [("date", .string(date.description))]
        var sum = DayOverview(date: date)
        for (_, overview) in days {
            sum.due += overview.due
            sum.done += overview.done
            sum.skipped += overview.skipped
            sum.pending += overview.pending
            sum.maybe += overview.maybe
        }
        members += sum.countMembers
        members.append(("class", .string(statusClass)))
        members.append(("routines", .array(days.map { $0.overview.json($0.routine) })))
        return .object(members)
    }

    /// The next step of the first routine (by its place in ``days``) that has one: what a
    /// status bar shows and acts on.
    public var next: (day: Int, step: NextStep)? {
        for (k, day) in days.enumerated() { if let step = day.overview.next { return (k, step) } }
        return nil
    }

    /// The first due habit not yet done or skipped, of the first routine that has one: what a
    /// notification's Done and Skip act on.
    public var nextHabit: (day: Int, node: Int)? {
        for (k, day) in days.enumerated() {
            if let habit = day.overview.habits.first(where: { $0.state == .pending }) { return (k, habit.node) }
        }
        return nil
    }

    /// The due habits neither done nor skipped, by routine, in the routines' order.
    public var pendingTitles: [(routine: String, titles: [String])] {
        days.compactMap { routine, overview in
            let titles = overview.habits.filter { $0.state == .pending }.map { routine.title(of: $0.node) }
            return titles.isEmpty ? nil : (routine.name, titles)
        }
    }
}
