import RoutineKit

/// The stamps of events: a hybrid logical clock (docs/sync.md, "Order by cause").
///
/// An event's `at` is the greater of this device's wall clock and the newest stamp it has
/// seen, plus one tick (a millisecond): a change made after seeing another orders after it,
/// whatever the clocks say. An event stamped more than ``heldAhead`` past this clock is held,
/// not applied nor counted as seen, until the clock reaches it: nothing dated far ahead can
/// freeze a key. Journals written before stamps were so made hold wall-clock times, which are
/// stamps of the same form.
enum SyncClock {
    /// How far ahead of this clock an event may be dated and still be applied: a day.
    static let heldAhead: Int64 = 86_400_000

    /// The latest stamp applied now.
    static func horizon(_ now: Timestamp = .now()) -> Timestamp {
        Timestamp(milliseconds: now.milliseconds + heldAhead)
    }

    /// The stamp of a new event, after `newest`, the newest stamp this device has seen.
    static func stamp(after newest: Timestamp?, now: Timestamp = .now()) -> Timestamp {
        guard let newest, newest >= now else { return now }
        return Timestamp(milliseconds: newest.milliseconds + 1)
    }
}
