import Testing

@testable import RoutineKit

/// The ways through each node (hover and code lenses) against a plain enumeration of every
/// way: for random routines with durations, each node's count, shortest and longest time.
struct WaysThroughNodesTests {
    @Test(arguments: 0..<300)
    func eachNodesWaysAreTheWaysThatRunIt(_ seed: UInt64) throws {
        let routine = PathOracleTests.routine(seed: seed, timed: true)
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
