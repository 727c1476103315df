import Testing

@testable import RoutineKit

/// The ways through each node (hover and code lenses) against a plain enumeration of every
/// way: for random routines with durations, each node's count, shortest and longest time.
struct WaysThroughNodesTests {
    static func routine(seed: UInt64) -> Routine {
        var random = RoutineGenerator(seed: seed)
        let n = 5 + Int(random.next() % 12)
        func targets(after i: Int) -> String {
            var list: [String] = []
            for _ in 0..<Int(random.next() % 3) {
                if random.next() % 9 == 0 { list.append("end"); continue }
                guard i + 1 < n else { break }
                list.append("n\(i + 1 + Int(random.next() % UInt64(n - i - 1)))")
            }
            return list.isEmpty ? "" : " -> " + list.joined(separator: ", ")
        }
        var text = "routine \"R\"\nstart -> n0" + (random.next() % 3 == 0 ? ", n\(n / 2)" : "") + "\n"
        for i in 0..<n {
            if random.next() % 3 == 0, i + 1 < n {
                text += "question n\(i) \"Q\"\n"
                for k in 0..<(2 + Int(random.next() % 2)) { text += "  \"o\(k)\"\(targets(after: i))\n" }
                let gather = targets(after: i)
                if !gather.isEmpty { text += "  then\(gather)\n" }
            } else {
                text += "habit n\(i) \"H\" for \(1 + random.next() % 30)m\(targets(after: i))\n"
            }
        }
        return load(text).routine
    }

    @Test(arguments: 0..<300)
    func eachNodesWaysAreTheWaysThatRunIt(_ seed: UInt64) throws {
        let routine = Self.routine(seed: seed)
        let explorer = PathExplorer(routine)
        var expected = [WaysThroughNode?](repeating: nil, count: routine.nodeCount)
        var total: UInt64 = 0
        try explorer.forEachPath { path in
            total += 1
            for node in Set(path.nodes) {
                let old = expected[node] ?? WaysThroughNode(count: BigCount(), shortestSeconds: .max, longestSeconds: .min)
                expected[node] = WaysThroughNode(
                    count: old.count + BigCount(1), shortestSeconds: min(old.shortestSeconds, path.seconds),
                    longestSeconds: max(old.longestSeconds, path.seconds))
            }
            return true
        }
        let (summary, byNode) = try explorer.waysThroughNodes()
        #expect(summary.count == BigCount(total))
        #expect(byNode == expected, "seed \(seed)")
    }

    @Test(arguments: [
        (UInt64(0), UInt64(5), "0"), (1, 1, "1"), (UInt64.max, 2, "36893488147419103230"),
        (UInt64.max, UInt64.max, "340282366920938463426481119284349108225"),
    ])
    func bigCountsMultiply(_ a: UInt64, _ b: UInt64, _ product: String) {
        #expect((BigCount(a) * BigCount(b)).description == product)
    }

    @Test func aProductPastTheLimitSaturates() {
        var big = BigCount(UInt64.max)
        for _ in 0..<3 { big = big * BigCount(UInt64.max) }
        #expect(!big.isSaturated)
        #expect((big * BigCount(UInt64.max)).isSaturated)
        #expect((big * BigCount(0)).description == "0")
    }
}
