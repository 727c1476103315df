import Testing

@testable import RoutineKit

/// The run's agenda journals only what a step decides (a heap push or pop as one change, no
/// arrow's count) and works the rest out again on undo: these tests compare the heap and the
/// agenda after an undo with copies taken at the mark, and bound the changes a run writes.
struct AgendaJournalTests {
    /// Random pushes and pops (mostly pushes, or half, or mostly pops, so that the heap grows
    /// deep, stays level, or keeps running empty), undone now and then back to a random
    /// earlier mark: the heap's array is exactly the copy taken there.
    @Test(arguments: 0..<25 as Range<UInt64>, [70, 50, 35])
    func undoingToAMarkLeavesTheHeapAsItWasThere(_ seed: UInt64, pushPercent: Int) {
        var random = RoutineGenerator(seed: seed)
        var heap = MinHeap()
        var journal: [AgendaChange] = []
        // Each node is pushed once, at a position of its own, as on an agenda.
        var positions: [Int] = []
        var used: Set<Int> = []
        var marks: [(mark: Int, items: [UInt64])] = [(0, [])]
        for _ in 0..<400 {
            let before = journal.count
            if heap.isEmpty || random.chance(pushPercent) {
                var position = random.below(1 << 20) - (1 << 19)
                while !used.insert(position).inserted { position = random.below(1 << 20) - (1 << 19) }
                positions.append(position)
                heap.push((position, positions.count - 1), journal: &journal)
            } else {
                let smallest = heap.items.min()!
                let popped = heap.pop(journal: &journal)
                #expect(popped.map { MinHeap.pack($0) } == smallest)
            }
            #expect(journal.count == before + 1, "one change a push or a pop")
            #expect(isHeap(heap.items))
            marks.append((journal.count, heap.items))
            if random.chance(15) {
                let k = random.below(marks.count)
                while journal.count > marks[k].mark {
                    let change = journal.removeLast()
                    let node = Int(change.value)
                    heap.undo(change, entry: MinHeap.pack((positions[node], node)))
                }
                #expect(heap.items == marks[k].items, "seed \(seed)")
                marks.removeSubrange((k + 1)...)
            }
        }
    }

    private func isHeap(_ items: [UInt64]) -> Bool {
        items.indices.dropFirst().allSatisfy { items[($0 - 1) / 2] < items[$0] }
    }

    /// A whole run writes one change for each node completed, enqueued, pushed, popped or
    /// dropped: none for an arrow released, none for each level an entry moves in the heap
    /// (a long start list sifts its heap deepest, a wide arrow releases the most arrows).
    /// Undone step by step from the end, the agenda is at each mark as it was there.
    @Test(arguments: ["start list", "wide arrow", "chain of questions", "random 11", "random 29", "random 47"])
    func aRunWritesAFewChangesAStep(_ shape: String) {
        let routine = Self.routine(shape)
        let graph = RoutineGraph(routine)
        var random = RoutineGenerator(seed: UInt64(shape.count))
        var agenda = Agenda(graph: graph, start: routine.start.map(\.target))
        let start = agenda.mark
        var kept: [(mark: Int, agenda: Agenda)] = []
        var steps = 0
        while case .node(let node)? = agenda.next() {
            if steps % 97 == 0 { kept.append((agenda.mark, agenda)) }
            let options = routine.optionCount(of: node)
            let answer = options > 0 ? routine.targets(ofAnswer: random.below(options), of: node) : []
            agenda.complete(node, targets: answer + routine.targets(of: node))
            steps += 1
        }
        #expect(steps > 0)
        #expect(agenda.mark <= Agenda.journalBound(nodes: graph.nodeCount), "\(agenda.mark) changes for \(steps) steps")
        if shape == "start list" { #expect(agenda.mark - start == 2 * steps, "a pop and a completion a step") }
        for (mark, then) in kept.reversed() {
            agenda.undo(to: mark)
            let same = agenda.isInTheState(of: then)
            #expect(same, "\(shape), mark \(mark)")
        }
        agenda.undo(to: start)
        let asStarted = agenda.isInTheState(of: Agenda(graph: graph, start: routine.start.map(\.target)))
        #expect(asStarted, "\(shape)")
    }

    static func routine(_ shape: String) -> Routine {
        let n = 3_000
        if let wide = ScalingTests.wideRoutine(shape, n) { return wide }
        var text = "routine \"R\"\n"
        switch shape {
        case "chain of questions":
            // Each answer leads on to the next question or down a chain of habits that the
            // next question's other answer also reaches: an answer drops part of a chain.
            for i in 0..<n { text += "question q\(i) \"Q\"\n  \"a\" -> q\(i + 1)\n  \"b\" -> d\(i)\n" }
            text += "habit q\(n) \"H\"\n"
            for i in 0..<n { text += "habit d\(i) \"D\" -> d\(i + 1)\n" }
            text += "habit d\(n) \"D\"\n"
        default:
            return PathOracleTests.routine(seed: UInt64(shape.dropFirst("random ".count))!)
        }
        return load(text).routine
    }
}
