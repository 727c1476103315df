/// The options of one question, sorted by their lowercased text, so that a typed answer is
/// matched by binary search: each answer costs the logarithm of the options, not a pass
/// over them (a question may have 100,000, and an answer file may be wrong many times).
public struct OptionIndex: Sendable {
    /// Option texts in the order written.
    public let texts: [String]
    /// (lowercased text, position), sorted.
    private let sorted: [(text: String, position: Int)]

    public init(_ texts: [String]) {
        self.texts = texts
        sorted = texts.enumerated().map { ($0.element.lowercased(), $0.offset) }.sorted {
            $0.text != $1.text ? $0.text < $1.text : $0.position < $1.position
        }
    }

    public init(question index: Int, of routine: Routine) {
        self.init((0..<routine.optionCount(of: index)).map { routine.answer($0, of: index) })
    }

    public var count: Int { texts.count }

    /// The first position whose lowercased text is `word`.
    func exact(_ word: String) -> Int? {
        let lo = lowerBound(word)
        return lo < sorted.count && sorted[lo].text == word ? sorted[lo].position : nil
    }

    /// The options whose lowercased text starts with `word`: how many, and the positions of a
    /// few to name (the first four in written order when there are few, else alphabetically).
    func prefixed(_ word: String) -> (count: Int, named: [Int]) {
        let lo = lowerBound(word)
        // Texts that start with `word` sort together, right from the lower bound.
        var low = lo
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].text.hasPrefix(word) { low = mid + 1 } else { high = mid }
        }
        let range = lo..<low
        let named = range.count <= 64 ? range.map { sorted[$0].position }.sorted() : range.prefix(4).map { sorted[$0].position }
        return (range.count, Array(named.prefix(4)))
    }

    private func lowerBound(_ word: String) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].text < word { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// What the interpreter needs to know about the node being asked: built once per prompt, so
/// that answering, or failing to, costs nothing more than the match itself.
public struct AskedNode: Sendable {
    public let isQuestion: Bool
    public let target: TargetValue?
    public let options: OptionIndex

    public init(_ index: Int, of routine: Routine) {
        isQuestion = routine.isQuestion(index)
        target = routine.target(of: index)
        options = isQuestion ? OptionIndex(question: index, of: routine) : OptionIndex([])
    }

    public init(_ node: RoutineNode) {
        isQuestion = node.isQuestion
        target = node.target
        options = OptionIndex(node.options.map(\.text))
    }
}
