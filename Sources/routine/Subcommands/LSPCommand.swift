import ArgumentParser
import RoutineLanguageServer

#if canImport(Glibc)
import Glibc
#endif

struct LSPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve the Language Server Protocol on standard input and output, for editors.",
        discussion: """
            Started by an editor, not by hand: see editors/ for Neovim, Helix, VS Code and Emacs. Logs go to \
            standard error. Exits when the editor sends 'exit' or closes the connection.
            """
    )

    @Flag(help: "Accepted for editors that pass it: standard input and output are the only transport.")
    var stdio = false

    @Option(
        help: "Where diagnostic codes are explained (an address of grammar.md); by default the grammar.md found beside the installed binary, if any.")
    var documentation: String?

    func run() throws {
        let code = ServerLoop.run(documentation: documentation ?? Self.localGrammar())
        if code != 0 { throw Exit.errors }
    }

    /// A `file:` address of grammar.md in a folder above the running binary (a checkout's
    /// `.build/debug/routine`), so that a diagnostic's code links to its explanation.
    static func localGrammar() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var folder = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<6 {
            guard let slash = folder.lastIndex(of: "/"), slash != folder.startIndex else { return nil }
            folder = String(folder[..<slash])
            if access(folder + "/grammar.md", R_OK) == 0 { return "file://" + folder + "/grammar.md" }
        }
        return nil
    }
}
