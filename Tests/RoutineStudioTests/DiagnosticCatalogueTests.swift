import Foundation
import RoutineHistory
import RoutineKit
import TestSupport
import Testing

@testable import RoutineStudio
@testable import routine

/// Every module's catalogue together: each declares its codes and lists them, and this suite,
/// the one that links every module, gathers the lists. It lives here because this test target is
/// the one that depends on RoutineKit, RoutineHistory, RoutineStudio and `routine` at once.
struct DiagnosticCatalogueTests {
    static let catalogues: [(module: String, codes: [DiagnosticCode])] = [
        ("RoutineKit", DiagnosticCode.languageCodes), ("RoutineHistory", DiagnosticCode.historyCodes),
        ("RoutineHistory (sync)", DiagnosticCode.syncCodes), ("RoutineStudio", DiagnosticCode.studioCodes),
        ("routine (reminders)", DiagnosticCode.reminderCodes),
    ]
    static let allCodes = catalogues.flatMap(\.codes)

    @Test func noCodeIsDeclaredTwice() {
        var seen: [String: String] = [:]
        for (module, codes) in Self.catalogues {
            for code in codes {
                #expect(seen[code.rawValue] == nil, "\(code) is listed by \(seen[code.rawValue] ?? "") and \(module)")
                seen[code.rawValue] = module
            }
        }
    }

    @Test(arguments: allCodes)
    func everyCodeHasASummaryAndStableSeverity(_ code: DiagnosticCode) {
        #expect(!code.summary.isEmpty)
        #expect(code.severity == (code.rawValue.hasPrefix("W") ? .warning : code.rawValue.hasPrefix("N") ? .note : .error))
    }

    /// Sync's codes are E7xx and only sync's; the studio's edits are E6xx (E601, the builder's
    /// refusal, is RoutineKit's, whose editor makes it).
    @Test func eachDomainKeepsItsNumbers() {
        #expect(DiagnosticCode.syncCodes.allSatisfy { $0.rawValue.hasPrefix("E7") })
        let elsewhere = Self.catalogues.filter { $0.module != "RoutineHistory (sync)" }.flatMap(\.codes)
        #expect(!elsewhere.contains { $0.rawValue.hasPrefix("E7") })
        #expect(DiagnosticCode.languageCodes.filter { $0.rawValue.hasPrefix("E6") } == [.editRefused])
    }

    /// grammar.md's table of codes holds each code's row, word for word (a row cut short is caught
    /// too), and no row for a code that no module lists.
    @Test func grammarDocumentsEveryDiagnosticCode() throws {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        for code in Self.allCodes {
            #expect(
                text.contains("| \(code.rawValue) | \(code.severity.rawValue) | \(code.summary) |"),
                "grammar.md's row for \(code.rawValue) differs from its summary")
        }
        let listed = Set(Self.allCodes.map(\.rawValue))
        let rows = text.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[0].isEmpty, ["error", "warning", "note"].contains(cells[2]) else { return nil }
            return cells[1]
        }
        #expect(rows.count == Self.allCodes.count)
        #expect(Set(rows).subtracting(listed).isEmpty, "grammar.md documents codes no module lists: \(Set(rows).subtracting(listed).sorted())")
    }
}
