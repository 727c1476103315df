import Testing

@testable import RoutineHistory

struct HistoryLocationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var flag: String?
        var disabled = false
        let environment: [String: String]
        let expected: HistoryLocation?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "flag first", flag: "/x/h.sqlite", environment: ["ROUTINE_HISTORY": "/y", "HOME": "/home/a"], expected: .file("/x/h.sqlite")),
        Case(name: "no-history wins", flag: "/x/h.sqlite", disabled: true, environment: [:], expected: .off),
        Case(name: "environment variable", environment: ["ROUTINE_HISTORY": "/y/h.sqlite", "HOME": "/home/a"], expected: .file("/y/h.sqlite")),
        Case(name: "environment off", environment: ["ROUTINE_HISTORY": "off", "HOME": "/home/a"], expected: .off),
        Case(
            name: "empty variable ignored", environment: ["ROUTINE_HISTORY": "", "HOME": "/home/a"],
            expected: .file("/home/a/.local/share/routine/history.sqlite")),
        Case(name: "XDG data home", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"], expected: .file("/data/routine/history.sqlite")),
        Case(
            name: "relative XDG ignored", environment: ["XDG_DATA_HOME": "data", "HOME": "/home/a/"],
            expected: .file("/home/a/.local/share/routine/history.sqlite")),
        Case(name: "nowhere", environment: [:], expected: nil),
    ]

    @Test(arguments: cases)
    func resolves(_ c: Case) {
        #expect(HistoryLocation.resolve(flag: c.flag, disabled: c.disabled, environment: { c.environment[$0] }) == c.expected)
    }
}
