import RoutineKit

/// A change made to a recorded step afterwards (`routine amend`, the studio's corrections):
/// when it was made, and what the step held before, so that it can be undone. An amendment
/// that added its step (a log made because no run reached the habit) held nothing before.
public struct Amendment: Hashable, Sendable {
    /// The amended step's number in its run.
    public var step: Int
    public var madeAt: Timestamp
    /// Whether the amendment added the step (and its log) rather than changing it.
    public var added: Bool
    /// What the step held before; nil when `added`.
    public var before: Before?

    public struct Before: Hashable, Sendable {
        /// `.answered` for a question's step, whose answer was changed.
        public var result: RecordedStep.Result
        public var value: Double?
        /// Nil when nobody was timed.
        public var seconds: Double?
        /// The option a question's step held: its 0-based index and its text as recorded.
        public var option: Int?
        public var optionText: String?

        public init(result: RecordedStep.Result, value: Double? = nil, seconds: Double?, option: Int? = nil, optionText: String? = nil) {
            self.result = result
            self.value = value
            self.seconds = seconds
            self.option = option
            self.optionText = optionText
        }
    }

    public init(step: Int, madeAt: Timestamp, added: Bool, before: Before?) {
        self.step = step
        self.madeAt = madeAt
        self.added = added
        self.before = before
    }

    /// The columns ``init(row:)`` reads, in its order; a read-only history older than v7 has
    /// no options.
    static func columns(_ store: HistoryStore) -> String {
        "runId, step, madeAt, added, result, value, seconds, " + (store.flags.hasAnswerAmendments ? "optionIndex, optionText" : "NULL, NULL")
    }

    init(row: Row) {
        step = row.int(1)
        madeAt = row.timestamp(2) ?? Timestamp(milliseconds: 0)
        added = row.bool(3)
        before =
            added
            ? nil
            : Before(
                result: row.text(4).flatMap(RecordedStep.Result.init(rawValue:)) ?? .done, value: row.optionalDouble(5),
                seconds: row.optionalDouble(6), option: row.optionalInt(7),
                optionText: row.text(8))
    }
}
