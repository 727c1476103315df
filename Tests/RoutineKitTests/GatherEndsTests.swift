import Testing

@testable import RoutineKit

/// Where a gather is drawn from: the places a run goes on to it, which are where the
/// question's branches end.
struct GatherEndsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        /// The sources as "ID" for a habit, "ID/N" for answer N of a question.
        let ends: [String]
        /// The nodes `graph` draws the gather from.
        let tails: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a habit at a branch's end, and an answer without an arrow",
            source: """
                question q "Q?"
                  "Run" -> run
                  "Walk" -> walk
                  "Rest"
                  then -> plan
                habit run "Run" -> shower
                habit shower "Shower"
                habit walk "Walk" -> plan
                habit plan "Plan"
                """, ends: ["q/2", "shower"], tails: ["q", "shower"]),
        Case(
            name: "every branch joins the gather's target: drawn from the question",
            source: """
                question q "Q?"
                  "A" -> a
                  "B" -> b
                  then -> g
                habit a "A" -> g
                habit b "B" -> g
                habit g "G"
                """, ends: [], tails: ["q"]),
        Case(
            name: "a branch that ends the routine ends nowhere of its own",
            source: """
                question q "Q?"
                  "Stop" -> end
                  "Go" -> a
                  then -> g
                habit a "A"
                habit g "G"
                """, ends: ["a"], tails: ["a"]),
        Case(
            name: "a nested question's answer without an arrow, and its branch's end",
            source: """
                question q "Q?"
                  "Ask" -> q2
                  then -> g
                question q2 "Again?"
                  "Yes" -> h
                  "No"
                habit h "H"
                habit g "G"
                """, ends: ["q2/1", "h"], tails: ["q2", "h"]),
        Case(
            name: "no gather: nothing to draw",
            source: """
                question q "Q?"
                  "A" -> a
                habit a "A"
                """, ends: [], tails: []),
    ]

    @Test(arguments: cases)
    func endsOfTheBranches(_ c: Case) throws {
        let routine = RoutineLoader.load(SourceFile(name: "g.rt", text: "routine \"G\"\n" + c.source + "\n")).routine
        let q = try #require(routine.indexByID()["q"])
        let ends = GatherEnds.sources(of: q, in: routine).map { source -> String in
            switch source {
            case .node(let n): routine.id(of: n)
            case .option(let n, let k): "\(routine.id(of: n))/\(k)"
            }
        }
        #expect(ends == c.ends)
        // `graph` draws each gather arrow from those nodes, labelled "then".
        let drawn = GraphView(routine, showProblems: false).arrows.filter { $0.kind == .gather }.compactMap { $0.from.map(routine.id(of:)) }
        #expect(drawn == c.tails)
    }

    /// A branch of `length` habits running on past the gather's target to the routine's end.
    static func longBranch(_ length: Int) -> String {
        var text = "routine \"G\"\nquestion q \"Q?\"\n  \"A\" -> h0\n  then -> g\nhabit g \"G\"\n"
        for k in 0..<length { text += "habit h\(k) \"H\"" + (k + 1 < length ? " -> h\(k + 1)\n" : "\n") }
        return text
    }

    /// Up to ``GatherEnds/walkLimit`` nodes the branch's end is found; past it the walk stops
    /// and the gather is drawn from the question, so that a routine of thousands of such
    /// questions is drawn in time linear in its size.
    @Test(arguments: [(GatherEnds.walkLimit, ["h\(GatherEnds.walkLimit - 1)"]), (GatherEnds.walkLimit + 1, [])])
    func aLongBranchIsWalkedUpToTheLimit(_ length: Int, _ ends: [String]) throws {
        let routine = RoutineLoader.load(SourceFile(name: "g.rt", text: Self.longBranch(length))).routine
        let q = try #require(routine.indexByID()["q"])
        #expect(GatherEnds.sources(of: q, in: routine).map { routine.id(of: $0.node) } == ends)
        #expect(GatherEnds.tails(of: q, in: routine).map(routine.id(of:)) == (ends.isEmpty ? ["q"] : ends))
    }
}
