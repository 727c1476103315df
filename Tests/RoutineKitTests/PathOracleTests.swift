import Testing

@testable import RoutineKit

/// The ways `paths` finds are exactly the runs the run engine makes: for random routines,
/// every combination of answers is walked through ``RoutineRun`` and compared, way by way,
/// with ``PathExplorer`` (answers, nodes in run order, whether `end` was reached). This is
/// where the three implementations of the agenda rule are held to agree: the run's ``Agenda``
/// against ``WindowedAgenda`` and ``SegmentAgenda``, each forced in turn.
struct PathOracleTests {
    /// A random acyclic routine: arrows only lead forward, some to `end`, some lists long;
    /// habits timed when `timed`.
    static func routine(seed: UInt64, timed: Bool = false) -> Routine {
        var random = RoutineGenerator(seed: seed)
        let n = 6 + Int(random.next() % 10)
        func targets(after i: Int) -> String {
            let count = Int(random.next() % 4)
            var list: [String] = []
            for _ in 0..<count {
                if random.next() % 7 == 0 {
                    list.append("end")
                    continue
                }
                guard i + 1 < n else { break }
                list.append("n\(i + 1 + Int(random.next() % UInt64(n - i - 1)))")
            }
            return list.isEmpty ? "" : " -> " + list.joined(separator: ", ")
        }
        var text = "routine \"R\"\nstart -> n0" + (random.next() % 2 == 0 ? ", n\(n / 2)" : "") + "\n"
        for i in 0..<n {
            if random.next() % 3 == 0, i + 1 < n {
                text += "question n\(i) \"Q\"\n"
                for k in 0..<(2 + Int(random.next() % 2)) { text += "  \"o\(k)\"\(targets(after: i))\n" }
                let gather = targets(after: i)
                if !gather.isEmpty { text += "  then\(gather)\n" }
            } else {
                let duration = timed ? " for \(1 + random.next() % 30)m" : ""
                text += "habit n\(i) \"H\"\(duration)\(targets(after: i))\n"
            }
        }
        return load(text).routine
    }

    struct Way: Hashable {
        var answers: [Int]
        var nodes: [Int]
        var reachedEnd: Bool
    }

    /// Every run, by trying each option at each question.
    static func runs(_ routine: Routine) -> [Way] {
        var ways: [Way] = []
        var stack = [RoutineRun(routine: routine, date: CalendarDate(year: 2026, month: 11, day: 23))]
        while var run = stack.popLast() {
            guard let node = run.current else {
                let answers = run.records.compactMap { record -> Int? in
                    if case .answer(let k) = record.outcome { return k }
                    return nil
                }
                ways.append(Way(answers: answers, nodes: run.records.map(\.node), reachedEnd: run.reachedEnd))
                continue
            }
            let options = routine.optionCount(of: node)
            if options == 0 {
                run.decide(.done(value: nil))
                stack.append(run)
            } else {
                for k in (0..<options).reversed() {
                    var branch = run
                    branch.decide(.option(k))
                    stack.append(branch)
                }
            }
        }
        return ways
    }

    /// Both agendas: the window search (short agendas) and the incremental one (long agendas,
    /// here from the first entry on).
    @Test(arguments: 0..<300)
    func pathsAreTheRunsTheEngineMakes(_ seed: UInt64) throws {
        let routine = Self.routine(seed: seed)
        let expected = Self.runs(routine)
        for longAgenda in [48, 0] {
            var found: [Way] = []
            let explorer = PathExplorer(routine, longAgenda: longAgenda)
            try explorer.forEachPath { path in
                found.append(Way(answers: path.answers.map(\.option), nodes: path.nodes, reachedEnd: path.reachedEnd))
                return found.count < 5_000
            }
            #expect(found == expected, "seed \(seed), long agendas from \(longAgenda)")
            #expect(try explorer.summarize().count.description == String(expected.count), "seed \(seed)")
        }
    }
}
