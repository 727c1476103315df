import Foundation
import Testing

/// Text from another device's journal in every output a bar or a terminal shows: a device's
/// name is shown escaped, a day off's reason with control characters is skipped as a command
/// would refuse it; no escape sequence is sent raw and a newline forges no line.
@Suite(.serialized)
struct SyncEscapingTests {
    /// An escape that would write the clipboard, and a line of its own.
    static let reason = "ev\u{1B}]52;c;aGk=\u{07}il\nforged"

    /// The output, and how many lines it has whatever the reason holds.
    static let outputs: [(arguments: [String], lines: Int)] = [
        (["today", "FILE", "--date", "2026-11-24"], 4),
        (["today", "FILE", "--date", "2026-11-24", "--format", "waybar"], 1),
        (["today", "FILE", "--date", "2026-11-24", "--format", "i3blocks"], 3),
        (["today", "FILE", "--date", "2026-11-24", "--format", "tmux"], 1),
        (["today", "FILE", "--date", "2026-11-24", "--format", "short"], 1),
        (["sync", "status"], 7),
    ]

    @Test(arguments: outputs)
    func journalTextIsEscapedInEveryOutput(_ arguments: [String], _ lines: Int) throws {
        let d = try SyncTests.Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        let joined = try d.routine("desk", ["sync", "init", folder, "--device", "desk\u{1B}]52;c;aGk=\u{07}\nforged"])
        #expect(!joined.stdout.contains("\nforged") && !joined.stdout.contains("\u{1B}"), "\(joined.stdout)")
        try d.routine("desk", ["off", "FILE", "2026-11-24", "--reason", "PLACEHOLDER"])
        // A reason with control characters, which a command refuses, forged into the journal:
        // the reader skips the line.
        let own = folder + "/" + (try SyncFaultTests.deviceID(d, "desk"))
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: own).first)
        let journal = try String(contentsOfFile: own + "/" + name, encoding: .utf8)
        let escaped = #"ev\u001b]52;c;aGk=\u0007il\nforged"#
        try journal.replacingOccurrences(of: "PLACEHOLDER", with: escaped).write(toFile: own + "/" + name, atomically: true, encoding: .utf8)
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        #expect(!(try d.export("laptop").contains("forged")), "the line is skipped")
        let out = try d.routine("laptop", arguments).stdout
        #expect(!out.utf8.contains { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }, "\(arguments): \(out.debugDescription)")
        #expect(!out.contains("\nforged"), "\(arguments): \(out)")
        if arguments[0] == "sync" { #expect(out.contains(#"desk\u{1B}]52;c;aGk=\u{7}\u{A}forged"#), "\(out)") }
        #expect(out.split(separator: "\n", omittingEmptySubsequences: false).count - 1 == lines, "\(arguments): \(out)")
    }
}
