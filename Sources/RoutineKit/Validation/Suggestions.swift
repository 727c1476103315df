/// The candidate closest to `word` by edit distance, when close enough to be a likely typo.
///
/// Bounded: at most a third of the word's length may differ (one character for short words),
/// something of the word must remain (so 'x' suggests no 'a'), and candidates whose length
/// alone rules them out are skipped without computing a distance.
public func closestMatch<S: Sequence>(to word: String, among candidates: S) -> String? where S.Element == String {
    let target = Array(word.unicodeScalars)
    let limit = max(1, target.count / 3)
    // For an ASCII word, ASCII candidates are compared byte by byte, in place: a typo in a
    // routine of thousands of IDs is checked at every keystroke. Any other goes by scalars.
    let bytes: [UInt8]? = word.utf8.allSatisfy { $0 < 0x80 } ? Array(word.utf8) : nil
    var best: (String, Int)?
    var other: [Unicode.Scalar] = []
    var rows = EditRows()
    for candidate in candidates {
        // A cheap bound first: UTF-8 is at most four bytes a scalar.
        guard candidate.utf8.count >= target.count - limit, candidate.utf8.count / 4 <= target.count + limit, candidate != word else { continue }
        // Farther than this is no better than what is found: the rows stop there.
        let bound = min(limit, (best?.1 ?? Int.max) - 1)
        var found: (distance: Int, count: Int)?
        if let bytes {
            found =
                candidate.utf8.withContiguousStorageIfAvailable { utf8 -> (Int, Int)? in
                    guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
                    guard abs(utf8.count - bytes.count) <= limit else { return (Int.max, utf8.count) }
                    return bytes.withUnsafeBufferPointer { (rows.distance($0, utf8, within: bound), utf8.count) }
                } ?? nil
        }
        if found == nil {
            other.removeAll(keepingCapacity: true)
            other.append(contentsOf: candidate.unicodeScalars)
            guard abs(other.count - target.count) <= limit else { continue }
            found = target.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { (rows.distance(a, $0, within: bound), $0.count) } }
        }
        guard let (d, count) = found else { continue }
        if d <= bound, d < max(target.count, count) { best = (candidate, d) }
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
/// reused from one call to the next. Only the cells within `bound` of the diagonal are
/// computed, and a distance past `bound` is given as `bound + 1` as soon as a row shows it.
private struct EditRows {
    var before: [Int] = []
    var previous: [Int] = []
    var row: [Int] = []

    mutating func distance<T: Equatable>(_ a: UnsafeBufferPointer<T>, _ b: UnsafeBufferPointer<T>, within bound: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        guard bound >= 0, abs(a.count - b.count) <= bound else { return bound + 1 }
        let far = bound + 1
        before.removeAll(keepingCapacity: true)
        before.append(contentsOf: repeatElement(far, count: b.count + 1))
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: (0...b.count).lazy.map { min($0, far) })
        row.removeAll(keepingCapacity: true)
        row.append(contentsOf: repeatElement(far, count: b.count + 1))
        for i in 1...a.count {
            // Cells farther than `bound` from the diagonal hold more than `bound` edits.
            let low = max(1, i - bound)
            let high = min(b.count, i + bound)
            row[0] = min(i, far)
            if low > 1 { row[low - 1] = far }
            var smallest = row[0]
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var cell = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cell = min(cell, before[j - 2] + 1) }
                    row[j] = min(cell, far)
                    smallest = min(smallest, row[j])
                }
            }
            if high < b.count { row[high + 1] = far }
            if smallest > bound { return far }
            swap(&before, &previous)
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
