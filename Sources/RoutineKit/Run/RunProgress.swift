/// What a run's header says is left: the steps on the longest way on from here, and whether
/// that is exact (no question is left on any way, so the choices are fixed) or a bound.
public struct StepsLeft: Hashable, Sendable {
    /// Steps after the one in front of the person.
    public var count: Int
    /// No question is left on any way from here: exactly `count` more.
    public var isFixed: Bool

    public init(count: Int, isFixed: Bool) {
        self.count = count
        self.isFixed = isFixed
    }

    /// "the last step", "3 more" or "at most 8 more".
    public var text: String {
        if count == 0 { return "the last step" }
        return isFixed ? "\(count) more" : "at most \(count) more"
    }
}

/// The longest remaining way of a run, from the paths analysis: the future of a run depends
/// only on its ordered agenda, so the longest way from a question's agenda is computed once
/// and kept (shared by every copy of the run); a stretch of habits up to the next question is
/// run once through the explorer, and each step along it costs a comparison. Only steps that
/// will ask count: a habit the run passes over (not on its days, its weekly quota met, done
/// earlier that day) is known when the run starts.
///
/// Exploring is bounded by a budget in proportion to the routine; a routine whose states
/// exceed it falls back to the bound of the live nodes, as an upper bound ("at most").
final class RunProgress: @unchecked Sendable {
    private let explorer: PathExplorer
    private let routine: Routine
    /// By node: whether the run will ask it when it comes (every question; a habit that is due).
    private let asks: [Bool]
    /// The longest way from a question's agenda, in steps, the question included.
    private var fromQuestion: [[Target]: Int] = [:]
    private(set) var exceeded = false
    /// The explorer's work so far, in the units of its budget (for tests of growth).
    var work: Int { explorer.work }

    init(_ routine: Routine, asks: [Bool]) {
        self.routine = routine
        self.asks = asks
        // Generous for any routine a person walks through by hand; a few milliseconds of work.
        let budget = 200 * (routine.nodeCount + routine.edges.count) + 2_000_000
        explorer = PathExplorer(routine, workBudget: budget)
    }

    /// The habits from the one in front up to the next question (or the end), and what the
    /// longest way adds after them.
    struct Stretch: Sendable {
        /// How many records the run had when the first of `nodes` was in front.
        var start: Int
        var nodes: [Int]
        /// By position in `nodes`: how many of the nodes after it will ask.
        var askingAfter: [Int]
        /// Steps on the longest way after the last of `nodes`.
        var after: Int
        var isFixed: Bool

        /// What is left when the run has `records` records and `current` in front, if that is
        /// still on this stretch.
        func left(records: Int, current: Int) -> StepsLeft? {
            let k = records - start
            guard k >= 0, k < nodes.count, nodes[k] == current else { return nil }
            return StepsLeft(count: askingAfter[k] + after, isFixed: isFixed)
        }
    }

    /// The stretch that starts with habit `current` on the ordered agenda `agenda`; nil when
    /// the explorer's budget is spent (or, defensively, when it would run another node).
    func stretch(from agenda: [Target], current: Int, records: Int) -> Stretch? {
        guard !exceeded else { return nil }
        do {
            let segment = try explorer.segment(from: agenda, answer: nil)
            guard segment.nodes.first == current else { return nil }
            var after = 0
            if let question = segment.question { after = try longest(from: segment.key, question: question) }
            var askingAfter = [Int](repeating: 0, count: segment.nodes.count)
            for k in segment.nodes.indices.dropLast().reversed() {
                askingAfter[k] = askingAfter[k + 1] + (asks[segment.nodes[k + 1]] ? 1 : 0)
            }
            return Stretch(start: records, nodes: segment.nodes, askingAfter: askingAfter, after: after, isFixed: segment.question == nil)
        } catch {
            exceeded = true
            return nil
        }
    }

    /// What is left with question `question` in front, on the ordered agenda `agenda`.
    func atQuestion(_ question: Int, agenda: [Target]) -> StepsLeft? {
        guard !exceeded else { return nil }
        do {
            return StepsLeft(count: try longest(from: agenda, question: question) - 1, isFixed: false)
        } catch {
            exceeded = true
            return nil
        }
    }

    /// The steps that ask on the longest way from `key` (question `question` first in line), the
    /// question included; every state reached on the way is kept. Depth first without
    /// recursion: a state is finished when all its options are.
    private func longest(from key: [Target], question: Int) throws(PathExplorer.TooComplex) -> Int {
        if let known = fromQuestion[key] { return known }
        struct Frame {
            var key: [Target]
            var question: Int
            var option = 0
            var best = 0
        }
        var stack = [Frame(key: key, question: question)]
        while let top = stack.last {
            if top.option == routine.optionCount(of: top.question) {
                fromQuestion[top.key] = 1 + top.best
                stack.removeLast()
                continue
            }
            let next = try explorer.segment(from: top.key, answer: (top.question, top.option))
            var steps = next.nodes.reduce(0) { $0 + (asks[$1] ? 1 : 0) }
            if let following = next.question {
                guard let known = fromQuestion[next.key] else {
                    stack.append(Frame(key: next.key, question: following))
                    continue
                }
                steps += known
            }
            stack[stack.count - 1].best = max(top.best, steps)
            stack[stack.count - 1].option += 1
        }
        return fromQuestion[key]!
    }
}
