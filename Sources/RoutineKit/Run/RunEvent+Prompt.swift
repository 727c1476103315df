extension RunEvent {
    /// What a front end other than the terminal shows for the events that `run --json` leaves
    /// out: the question in front of the person (`prompt`) and the end to confirm
    /// (`confirm-end`), in the words of the terminal's screen. Nil for every other event.
    public func promptJSON(_ run: RoutineRun) -> JSONValue? {
        switch self {
        case .prompt(let index, let step, let again):
            let routine = run.routine
            let node = routine.nodes[index]
            var members: [(String, JSONValue)] = [
                ("event", .string("prompt")), ("step", .int(step)), ("node", .string(node.id)),
                ("kind", .string(node.kind.rawValue)), ("title", .string(node.title)), ("note", node.note.map { .string($0) } ?? .null),
                ("again", .bool(again)),
            ]
            if node.isQuestion {
                members.append(
                    (
                        "options",
                        .array(
                            node.options.enumerated().map { k, option in
                                .object([("index", .int(k + 1)), ("text", .string(option.text))])
                            })
                    ))
            } else {
                members += [
                    ("seconds", node.duration.map { .int($0) } ?? .null),
                    ("duration", node.duration.map { .string(DurationText.human($0)) } ?? .null),
                    ("target", node.target.map { .number($0.amount) } ?? .null),
                    ("unit", node.target?.unit.map { .string($0) } ?? .null),
                    ("targetText", node.target.map { .string($0.dayText) } ?? .null),
                    ("perWeek", node.perWeek.map { .int($0) } ?? .null),
                    ("doneThisWeek", node.perWeek.map { _ in .int(run.doneThisWeek[index] ?? 0) } ?? .null),
                ]
            }
            let left = run.stepsLeft
            members.append(("left", .object([("count", .int(left.count)), ("fixed", .bool(left.isFixed)), ("text", .string(left.text))])))
            return .object(members)
        case .confirmEnd:
            return .object([("event", .string("confirm-end")), ("routine", .string(run.routine.name)), ("step", .int(run.step))])
        default:
            return nil
        }
    }
}
