#if canImport(Glibc)
import Glibc
#endif

/// How long the person took over each step of a run: from the moment the step was first
/// shown to the decision, on a monotonic clock, so that a wall clock stepped meanwhile (NTP,
/// a changed time zone, a laptop waking up) changes nothing.
///
/// Only a person is timed. A scripted run measures nothing (every step nil), and so does a
/// step nobody decided (a habit passed over because it is not scheduled).
public struct StepTimer: Sendable {
    /// Seconds by record of the run, in order; nil where nothing was measured. A scripted
    /// run's cost no memory (``StepTimes``).
    public private(set) var seconds: StepTimes
    /// Whether the run is timed at all.
    public let measures: Bool
    private let clock: @Sendable () -> Double
    private var shownAt: Double
    /// What a countdown measured for the step in front, which then is the step's time.
    private var countdown: Double?

    /// `kept`: the times of the records a resumed run starts with, as they were measured
    /// before the interruption. `clock` reads seconds on a monotonic clock (tests inject one).
    public init(
        measures: Bool, kept: some Sequence<Double?> = [Double?](), clock: @escaping @Sendable () -> Double = StepTimer.monotonicSeconds
    ) {
        self.measures = measures
        seconds = StepTimes(kept)
        self.clock = clock
        shownAt = clock()
    }

    /// Seconds on CLOCK_MONOTONIC: never stepped, only ever going forward.
    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A step is in front of the person from now on.
    public mutating func shown() {
        shownAt = clock()
        countdown = nil
    }

    /// The countdown of the step in front ran `elapsed` seconds (its pauses left out): the
    /// step's time, whatever the step's own clock says.
    public mutating func timed(_ elapsed: Double) { countdown = elapsed }

    /// Measures the records of `run` that have no time yet: the decision in front now, and
    /// what the run passed over after it (nil).
    public mutating func catchUp(_ run: RoutineRun) {
        while seconds.count < run.records.count {
            let record = run.records[seconds.count]
            if measures, record.outcome != .habit(.notScheduled, value: nil) {
                seconds.append(countdown ?? max(0, clock() - shownAt))
                countdown = nil
                // A second decision before the next prompt (none today) is timed from here.
                shownAt = clock()
            } else {
                seconds.append(nil)
            }
        }
    }

    /// The run went back to `count` records: the times after them are gone.
    public mutating func back(to count: Int) {
        if seconds.count > count { seconds.removeLast(seconds.count - count) }
    }

    /// Follows a run's events: a step shown (not shown again) starts its clock, a decision or
    /// the end measures it, and `back` forgets what was undone.
    public mutating func observe(_ event: RunEvent, _ run: RoutineRun) {
        switch event {
        case .prompt(_, _, false): shown()
        case .record, .end: catchUp(run)
        case .back: back(to: run.records.count)
        default: break
        }
    }

    /// The seconds of the record at `index`, nil when not measured (or not yet).
    public func seconds(at index: Int) -> Double? { seconds.indices.contains(index) ? seconds[index] : nil }

    /// The time measured over the whole run: the sum of its steps' times, nil when none was.
    public var total: Double? { Self.took(seconds) }

    /// The time a run took, wherever it is shown (the summary at a terminal, `log`): the sum
    /// of its steps' measured times, so that a resumed run counts what was measured before it
    /// stopped and not the break; nil when no step was timed.
    public static func took(_ seconds: some Sequence<Double?>) -> Double? {
        var sum: Double?
        for case let value? in seconds { sum = (sum ?? 0) + value }
        return sum
    }
}
