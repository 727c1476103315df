/// The options of one question, sorted by their lowercased text, so that a typed answer is
/// matched by binary search: each answer costs the logarithm of the options, not a pass
/// over them (a question may have 100,000, and an answer file may be wrong many times).
public struct OptionIndex: Sendable {
    /// Option texts in the order written.
    public let texts: [String]
    /// (lowercased text, position), sorted.
    private let sorted: [(text: String, position: Int)]
    /// The same without leading emoji, punctuation and spaces, so that "great" is a start of
    /// "😀 Great!".
    private let bare: [(text: String, position: Int)]

    public init(_ texts: [String]) {
        self.texts = texts
        func order(_ a: (text: String, position: Int), _ b: (text: String, position: Int)) -> Bool {
            a.text != b.text ? a.text < b.text : a.position < b.position
        }
        sorted = texts.enumerated().map { ($0.element.lowercased(), $0.offset) }.sorted(by: order)
        bare = texts.enumerated().map { (Self.bare($0.element.lowercased()), $0.offset) }.sorted(by: order)
    }

    /// `text` from its first letter or digit on.
    static func bare(_ text: String) -> String {
        String(text.drop { !$0.isLetter && !$0.isNumber })
    }

    public init(question index: Int, of routine: Routine) {
        self.init((0..<routine.optionCount(of: index)).map { routine.answer($0, of: index) })
    }

    public var count: Int { texts.count }

    /// The first position whose lowercased text is `word`.
    func exact(_ word: String) -> Int? {
        let lo = lowerBound(word, in: sorted)
        return lo < sorted.count && sorted[lo].text == word ? sorted[lo].position : nil
    }

    /// The options whose lowercased text starts with `word`: how many, and the positions of a
    /// few to name (the first four in written order when there are few, else alphabetically).
    func prefixed(_ word: String) -> (count: Int, named: [Int]) {
        // Matched without leading emoji and punctuation on either side.
        let word = Self.bare(word)
        guard !word.isEmpty else { return (0, []) }
        let sorted = bare
        let lo = lowerBound(word, in: sorted)
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

    private func lowerBound(_ word: String, in sorted: [(text: String, position: Int)]) -> Int {
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
