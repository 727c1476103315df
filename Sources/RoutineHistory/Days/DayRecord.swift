import RoutineKit

/// What the history holds of one day: what `routine log --date` prints and the studio's day
/// view shows, read by one function for both.
public struct DayRecord: Sendable {
    public var date: CalendarDate
    /// The day's runs and logs, newest first, with their steps and amendments.
    public var runs: [StoredRun]
    /// The days off recorded for that date (one per routine at most).
    public var daysOff: [DayOff]

    public init(date: CalendarDate, runs: [StoredRun] = [], daysOff: [DayOff] = []) {
        self.date = date
        self.runs = runs
        self.daysOff = daysOff
    }

    /// `{"date", "runs": [{"id", "run"}], "daysOff": [...]}`: each `run` exactly as
    /// `log --date --json` prints its line (``HistoryJSON/encode(_:)``), newest first, with the
    /// id a correction names it by; each day off as `history export` writes it.
    public var json: JSONValue { json(in: nil) }

    /// ``json``, with each run's `values` when `routine` is given: by step number, what a
    /// done step's value says against its target (``StoredStep/valueText(in:)``), "at most"
    /// from the routine, which a step does not keep.
    public func json(in routine: Routine?) -> JSONValue {
        .object([
            ("date", .string(date.description)),
            (
                "runs",
                .array(
                    runs.map { run in
                        var members: [(String, JSONValue)] = [("id", run.id.map { .int(Int($0)) } ?? .null), ("run", HistoryJSON.encode(run))]
                        if routine != nil {
                            let values = run.steps.compactMap { step in
                                step.valueText(in: routine).map { (String(step.decision.step), JSONValue.string($0)) }
                            }
                            members.append(("values", .object(values)))
                        }
                        return .object(members)
                    })
            ),
            ("daysOff", .array(daysOff.map(HistoryJSON.encode))),
        ])
    }
}

extension StoredStep {
    /// The target the step was recorded against: the amount and unit it keeps, with the bound
    /// (a goal or "at most") of the node of the same ID in `routine`, which a step does not keep.
    public func target(in routine: Routine?) -> TargetValue? {
        target.map { TargetValue(recorded: $0, unit: unit, node: decision.node, in: routine) }
    }

    /// A done step's value as every view says it (``TargetValue/valueText(_:)``): `5 of 8 glasses`,
    /// `3 · over the limit of 2 cups`; nil without a value.
    public func valueText(in routine: Routine?) -> String? {
        guard let value = decision.value else { return nil }
        if let target = target(in: routine) { return target.valueText(value) }
        return NumberText.format(value) + (unit.map { " " + $0 } ?? "")
    }
}

extension TargetValue {
    /// A target as a history keeps it (its amount and unit), with the bound (a goal or "at
    /// most") of the node of the same ID in `routine`, which a history does not keep.
    public init(recorded amount: Double, unit: String? = nil, node: String, in routine: Routine?) {
        let atMost = routine.flatMap { routine in routine.indexByID()[node].flatMap(routine.target(of:))?.atMost } ?? false
        self.init(amount: amount, unit: unit, atMost: atMost)
    }
}
