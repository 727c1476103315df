/// The candidate closest to `word` by edit distance, when close enough to be a likely typo.
///
/// Bounded: at most a third of the word's length may differ (one character for short words),
/// something of the word must remain (so 'x' suggests no 'a'), and candidates whose length
/// alone rules them out are skipped without computing a distance.
public func closestMatch<S: Sequence>(to word: String, among candidates: S) -> String? where S.Element == String {
    let target = Array(word.unicodeScalars)
    let limit = max(1, target.count / 3)
    var best: (String, Int)?
    // One buffer for every candidate's scalars and one for the rows: a typo in a routine of
    // thousands of IDs is checked at every keystroke, and allocations were most of its cost.
    var other: [Unicode.Scalar] = []
    var rows = EditRows()
    for candidate in candidates {
        // A cheap bound first: UTF-8 is at most four bytes a scalar.
        guard candidate.utf8.count >= target.count - limit, candidate.utf8.count / 4 <= target.count + limit else { continue }
        other.removeAll(keepingCapacity: true)
        other.append(contentsOf: candidate.unicodeScalars)
        guard abs(other.count - target.count) <= limit, candidate != word else { continue }
        let d = rows.distance(target, other)
        if d <= limit, d < max(target.count, other.count), d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    return best?.0
}

/// What to add to "no habit is named 'x'" when a name given on the command line names
/// nothing: the likely typo's fix, or else the first few names there are, so that the person
/// is never left guessing. `kind` is the plural the names are ("nodes", "habits").
public func nameHint(for word: String, among names: [String], kind: String) -> String {
    if let close = closestMatch(to: word, among: names) { return "; did you mean '\(close)'?" }
    guard !names.isEmpty else { return "; it has no \(kind)" }
    let shown = 6
    var hint = "; its \(kind) are " + names.prefix(shown).map { "'\($0)'" }.joined(separator: ", ")
    if names.count > shown { hint += " and \(names.count - shown) more" }
    return hint
}

/// Edit distance where swapping two neighbouring characters costs one edit, as in the
/// commonest typo ("titel"); optimal string alignment, keeping two previous rows, which are
/// reused from one call to the next.
private struct EditRows {
    var before: [Int] = []
    var previous: [Int] = []
    var row: [Int] = []

    mutating func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        before.removeAll(keepingCapacity: true)
        before.append(contentsOf: repeatElement(0, count: b.count + 1))
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...b.count)
        row.removeAll(keepingCapacity: true)
        row.append(contentsOf: repeatElement(0, count: b.count + 1))
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], before[j - 2] + 1) }
            }
            swap(&before, &previous)
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
