import RoutineKit

/// The history's own values, read from a row in place without making a string of them.
extension Row {
    /// Column `index` as a ``Timestamp``; nil for NULL or a text that is not one.
    func timestamp(_ index: Int) -> Timestamp? { bytes(index).flatMap(Timestamp.init(utf8:)) }

    /// A step's result column, told by its first letter: the schema allows only done, skipped,
    /// not-scheduled and answered, and ten years of steps are read without making a string each.
    func stepResult(_ index: Int) -> RecordedStep.Result? {
        guard let text = bytes(index) else { return nil }
        switch text.first ?? 0 {
        case UInt8(ascii: "d"): return .done
        case UInt8(ascii: "s"): return .skipped
        case UInt8(ascii: "n"): return .notScheduled
        default: return .answered
        }
    }
}
