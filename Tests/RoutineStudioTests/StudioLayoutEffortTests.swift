import RoutineKit
import Testing

@testable import RoutineStudio

/// How much work `dot` is asked for: the full placement for a routine a person reads at a
/// glance, less placement and a shorter crossing search from `largeRoutine` nodes on.
struct StudioLayoutEffortTests {
    static func chain(_ count: Int) -> Routine {
        var text = "routine \"R\"\n"
        for k in 0..<count { text += "habit h\(k) \"H\(k)\"" + (k + 1 < count ? " -> h\(k + 1)\n" : "\n") }
        return RoutineLoader.load(SourceFile(name: "r.rt", text: text)).routine
    }

    @Test(arguments: [
        ("morning-sized", 10, "nslimit=1]"), ("one short of large", StudioLayout.largeRoutine - 1, "nslimit=1]"),
        ("large", StudioLayout.largeRoutine, "nslimit=0.2, mclimit=0.3]"), ("200 nodes", 200, "nslimit=0.2, mclimit=0.3]"),
    ])
    func effortFollowsTheSize(_ name: String, _ count: Int, _ attributes: String) {
        let header = StudioLayout.dot(for: Self.chain(count), reachable: nil).text.split(separator: "\n")[0]
        #expect(header.hasSuffix(attributes + ";"), "\(header)")
    }

    /// Pinned cards get arrows routed around them while `neato` takes under about 1.5 s of CPU
    /// for it (99 cards); from 100 on, straight arrows (BENCHMARKS.md, "The studio").
    @Test(arguments: [("40 cards", 40, "spline"), ("99 cards", 99, "spline"), ("100 cards", 100, "line"), ("200 cards", 200, "line")])
    func pinnedArrowsFollowTheSize(_ name: String, _ count: Int, _ splines: String) {
        let routine = Self.chain(count)
        let header = StudioLayout.dot(for: routine, reachable: nil, pins: ["n0": (10, 10)]).text.split(separator: "\n")[0]
        #expect(header.contains("layout=neato, splines=\(splines),"), "\(header)")
    }
}
