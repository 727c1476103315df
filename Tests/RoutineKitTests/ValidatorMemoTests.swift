import Testing

@testable import RoutineKit

/// The "did you mean" answers an edited document carries from one version to the next: over
/// many seeded edits, a version checked with its predecessor's answers reports exactly what it
/// reports checked from scratch.
struct ValidatorMemoTests {
    /// IDs over three letters, so that typos are close to several IDs and an edit often changes
    /// which one is closest.
    static func word(_ random: inout SeededRandom) -> String {
        String((0..<Int.random(in: 2...4, using: &random)).map { _ in "abc".randomElement(using: &random)! })
    }

    static func line(_ random: inout SeededRandom) -> String {
        let targets = (0..<Int.random(in: 0...2, using: &random)).map { _ in word(&random) }
        return "habit \(word(&random)) \"T\"" + (targets.isEmpty ? "" : " -> " + targets.joined(separator: ", "))
    }

    /// One edit of the kinds an editor makes: a line replaced, a title changed (same IDs), a
    /// line added or removed, two lines swapped (same IDs, another order).
    static func edit(_ lines: inout [String], _ random: inout SeededRandom) {
        let k = Int.random(in: 0..<lines.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: lines[k] = line(&random)
        case 1, 2: lines[k] = lines[k].replacingFirst("\"T\"", with: "\"T\(Int.random(in: 0..<9, using: &random))\"")
        case 3: lines.insert(line(&random), at: k)
        case 4 where lines.count > 1: lines.remove(at: k)
        default: lines.swapAt(k, Int.random(in: 0..<lines.count, using: &random))
        }
    }

    @Test(arguments: 0..<40)
    func reusedSuggestionsAreThoseFoundFromScratch(seed: Int) {
        var random = SeededRandom(state: UInt64(seed) &+ 7)
        var lines = (0..<12).map { _ in Self.line(&random) }
        var previous: LoadedRoutine?
        var reused = 0
        var suggested = 0
        for _ in 0..<60 {
            Self.edit(&lines, &random)
            let file = SourceFile(name: "t.rt", bytes: Array(("routine \"R\"\n" + lines.joined(separator: "\n")).utf8))
            let fresh = RoutineLoader.load(file)
            let next = RoutineLoader.load(file, previous: previous)
            #expect(next.diagnostics == fresh.diagnostics, "\(lines)")
            if let previous, !previous.suggestions.answers(for: next.routine).isEmpty { reused += 1 }
            suggested += fresh.diagnostics.filter { $0.fixIt != nil && $0.code == .unknownTarget }.count
            previous = next
        }
        // The edits both keep the IDs (answers reused) and change them, with suggestions to make.
        #expect(reused >= 10)
        #expect(suggested >= 10)
    }

    /// The IDs are compared in order: the first of two IDs as close as each other is chosen,
    /// so the same IDs in another order may be another suggestion.
    @Test(
        arguments: [
            ("habit ab \"A\" -> ax\nhabit ac \"C\"", "habit ac \"C\"\nhabit ab \"A\" -> ax", "ab", "ac"),
            ("habit walk \"W\" -> wakl\nhabit talk \"T\"", "habit wall \"W\" -> wakl\nhabit talk \"T\"", "walk", "wall"),
            ("habit run \"R\" -> rnu\nhabit ran \"A\"", "habit rum \"R\" -> rnu\nhabit ran \"A\"", "run", nil),
        ] as [(String, String, String, String?)])
    func anotherOrderOrAnotherIDIsLookedUpAgain(before: String, after: String, first: String, second: String?) {
        func load(_ body: String, _ previous: LoadedRoutine?) -> LoadedRoutine {
            RoutineLoader.load(SourceFile(name: "t.rt", bytes: Array(("routine \"R\"\n" + body).utf8)), previous: previous)
        }
        func suggestion(_ loaded: LoadedRoutine) -> String? {
            loaded.diagnostics.first { $0.code == .unknownTarget }?.fixIt?.replacement
        }
        let old = load(before, nil)
        #expect(suggestion(old) == first)
        #expect(suggestion(load(after, old)) == second)
        #expect(suggestion(load(after, nil)) == second)
    }
}

extension String {
    fileprivate func replacingFirst(_ what: String, with replacement: String) -> String {
        guard let range = range(of: what) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
