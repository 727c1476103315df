/// The "did you mean" answers found for the unknown targets of one routine, kept so that the
/// next version of a document being edited reuses them when its IDs are the same as this
/// one's, in the same order: a suggestion depends on nothing else (``closestMatch(to:among:)``
/// over the IDs in file order), so it is then the same, and a typo left standing in a routine
/// of thousands of IDs is not compared with every ID again at each keystroke.
public struct SuggestionMemo: Sendable {
    /// The routine whose IDs the answers were chosen among.
    var routine: Routine?
    /// An unknown name's suggestion, `nil` inside when no ID is close enough.
    var answers: [String: String?] = [:]

    public init() {}

    init(routine: Routine, answers: [String: String?]) {
        self.routine = routine
        self.answers = answers
    }

    /// The answers when `routine` has the same IDs as the one they were found for, else none.
    func answers(for routine: Routine) -> [String: String?] {
        guard !answers.isEmpty, let known = self.routine, Self.sameIDs(known, routine) else { return [:] }
        return answers
    }

    /// Whether `a` and `b` declare the same IDs in the same order, compared byte by byte.
    static func sameIDs(_ a: Routine, _ b: Routine) -> Bool {
        guard a.records.count == b.records.count else { return false }
        return a.withBuffers { x in
            b.withBuffers { y in
                for i in 0..<x.records.count where !x.bytes(x.records[i].id).hasSameBytes(as: y.bytes(y.records[i].id)) {
                    return false
                }
                return true
            }
        }
    }
}
