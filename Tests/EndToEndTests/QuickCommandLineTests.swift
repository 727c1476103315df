import ArgumentParser
import Testing

@testable import routine

/// The command lines read without ArgumentParser must give the very command ArgumentParser
/// gives, every property set alike; every other command line must be left to ArgumentParser.
struct QuickCommandLineTests {
    static let readHere: [[String]] = [
        ["check", "a.rt"],
        ["check", "a.rt", "b.yaml", "c"],
        ["check", "--strict", "a.rt"],
        ["check", "a.rt", "--format", "short"],
        ["check", "--format=json", "a.rt", "--strict", "b.rt"],
        ["check", "a.rt", "--input-format", "yaml", "--color", "never"],
        ["check", "a.rt", "--input-format=rt", "--color=always"],
        ["check", "a b.rt", "--format", "rich"],
        ["today"],
        ["today", "a.rt"],
        ["today", "a.rt", "b.rt", "--date", "2026-11-27"],
        ["today", "--date=2026-02-28", "--history", "h.sqlite", "a.rt"],
        ["today", "--json"],
        ["today", "--check", "--format", "short"],
        ["today", "--format", "waybar"],
        ["today", "--format=i3blocks", "--click", "left"],
        ["today", "--format", "tmux", "--color", "never"],
        ["today", "--click=middle", "--history=h.sqlite"],
        ["today", "--notify", "--snooze", "1h"],
        ["today", "--notify", "--check", "a.rt", "--input-format", "yaml"],
    ]

    @Test(arguments: readHere)
    func aCommandReadHereIsTheOneArgumentParserReads(_ arguments: [String]) throws {
        let parsed = try RoutineCommand.parseAsRoot(arguments)
        switch QuickCommandLine.read(arguments) {
        case .check(let quick)?:
            let check = try #require(parsed as? CheckCommand)
            #expect(Self.described(quick) == Self.described(check))
        case .today(let quick)?:
            // The command's own plain value, which its run and validate use.
            let today = try #require(parsed as? TodayCommand)
            #expect(Self.described(quick) == Self.described(today.today))
        case .version?, nil:
            Issue.record("\(arguments) is left to ArgumentParser")
        }
    }

    static let leftToArgumentParser: [[String]] = [
        [],
        ["--version", "check"],
        ["--help"],
        ["help", "check"],
        ["check"],
        ["check", "-"],
        ["check", "--help"],
        ["check", "-h"],
        ["check", "a.rt", "--"],
        ["check", "--", "-a.rt"],
        ["check", "a.rt", "--format"],
        ["check", "a.rt", "--format", "--strict"],
        ["check", "a.rt", "--format="],
        ["check", "a.rt", "--format", "bogus"],
        ["check", "a.rt", "--format", "json", "--format", "short"],
        ["check", "a.rt", "--strict", "--strict"],
        ["check", "a.rt", "--strict=true"],
        ["check", "a.rt", "--unknown"],
        ["check", "a.rt", "--color", "sometimes"],
        ["check", "a.rt", "--input-format", "json"],
        ["chek", "a.rt"],
        ["today", "--date", "2026-13-01"],
        ["today", "--date", "1899-12-31"],
        ["today", "--date"],
        ["today", "--history", ""],
        ["today", "--history="],
        ["today", "--snooze", "10m"],
        ["today", "--notify", "--snooze", "soon"],
        ["today", "--json", "--format", "waybar"],
        ["today", "--click", "left", "--json"],
        ["today", "--click", "up"],
        ["today", "--format", "Short"],
        ["today", "-j"],
        ["today", "--version"],
        ["run", "a.rt"],
    ]

    @Test(arguments: leftToArgumentParser)
    func everyOtherCommandLineIsLeftToArgumentParser(_ arguments: [String]) {
        #expect(QuickCommandLine.read(arguments) == nil)
    }

    @Test func theVersionAloneIsReadHere() {
        guard case .version? = QuickCommandLine.read(["--version"]) else {
            Issue.record("--version is left to ArgumentParser")
            return
        }
    }

    /// Every stored property, through the property wrappers, as `dump` writes it.
    static func described(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
