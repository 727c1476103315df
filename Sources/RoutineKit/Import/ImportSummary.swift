/// What an import of another tracker's history did, and what it left out, for its last line.
public struct ImportSummary: Sendable, Equatable {
    public var habits = 0
    /// Days logged: done or skipped, added now, already there, or already recorded.
    public var days = 0
    public var added = 0
    /// Days the history already held for the habit (a log or a run of its own), left as they were.
    public var alreadyRecorded = 0
    public var unknownDays = 0
    public var impliedDays = 0
    public var notesLeftOut = 0
    public var amountsLeftOut = 0
    public var archivedLeftOut = 0
    public var frequenciesApproximated = 0
    /// Habits the tracker only tracks, which a run never offers (``ImportPlan``).
    public var trackingOnly = 0

    public init() {}

    /// `4 habits, 1,204 days; 3 unknown days left out; 1 frequency approximated`.
    public var text: String {
        var parts = [Self.count(habits, "habit") + ", " + Self.count(days, "day")]
        if alreadyRecorded > 0 {
            parts.append(Self.count(alreadyRecorded, "day") + " already recorded left as " + (alreadyRecorded == 1 ? "it was" : "they were"))
        }
        if unknownDays > 0 { parts.append(Self.count(unknownDays, "unknown day") + " left out") }
        if impliedDays > 0 { parts.append(Self.count(impliedDays, "day") + " only implied by a frequency left out") }
        if archivedLeftOut > 0 { parts.append(Self.count(archivedLeftOut, "archived habit") + " left out (--archived imports them)") }
        if notesLeftOut > 0 { parts.append(Self.count(notesLeftOut, "day note") + " left out") }
        if amountsLeftOut > 0 { parts.append(Self.count(amountsLeftOut, "amount") + " of habits without a target left out") }
        if trackingOnly > 0 {
            parts.append(
                Self.count(trackingOnly, "habit") + " tracked only, never due (left out of 'start'; 'routine done' logs "
                    + (trackingOnly == 1 ? "it)" : "them)"))
        }
        if frequenciesApproximated > 0 {
            parts.append(Self.count(frequenciesApproximated, "frequency", plural: "frequencies") + " approximated")
        }
        return parts.joined(separator: "; ")
    }

    /// `1,204 days`: digits grouped by three, as a person reads a count.
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        var digits = String(n)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
