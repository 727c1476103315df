import ArgumentParser
import RoutineHistory

#if canImport(Glibc)
import Glibc
#endif

struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Edit a routine in the browser: a visual builder over the file, which stays the only truth.",
        discussion: """
            Prints the address (http://127.0.0.1:PORT/?token=TOKEN) as the first line and serves until Ctrl-C or \
            SIGTERM. Only this machine, with the token, can use it; ROUTINE_STUDIO_TOKEN sets the token (at least \
            32 characters of 0-9 and a-f). --open gives the browser a one-time address instead, which holds no \
            token. A file that does not exist yet is created by the first edit. See docs/studio.md.
            """
    )

    @Argument(help: ArgumentHelp("The routine file (.rt, or YAML).", valueName: "file"), completion: .file(extensions: ["rt", "yaml", "yml"]))
    var file: String

    @Option(help: "The port to listen on (default: a free one).")
    var port: Int = 0

    @Flag(help: "Open the studio in the browser with xdg-open, when it is installed, by an address that works once.")
    var open = false

    @Flag(
        name: .customLong("no-history"),
        help:
            "Record nothing: Today shows the day without history and refuses logs and corrections, a run in the Run tab is kept nowhere, and Your days shows no history (the builder records nothing anyway)."
    )
    var noHistory = false

    @Flag(
        name: .customLong("exit-when-idle"),
        help: "End by itself once no page has been open for 10 minutes (the studio a status bar's click starts).")
    var exitWhenIdle = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() throws {
        var historyPath = ""
        if case .file(let path)? = HistoryLocation.resolve(flag: history.history, disabled: noHistory) { historyPath = path }
        // The server is a program of its own (see Sources/routine-studio), installed beside
        // this one: the token stays in the environment, where ROUTINE_STUDIO_TOKEN put it.
        let program = Self.serverPath()
        let words = [program, file, String(port), open ? "open" : "stay", historyPath] + (exitWhenIdle ? ["idle"] : [])
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        StandardError.write(
            visible: "routine: error: cannot start the studio's server '\(program)': \(reason); "
                + "README's install puts 'routine-studio' beside 'routine'\n")
        throw Exit.programMissing
    }

    /// `routine-studio` in the folder of the running executable.
    static func serverPath() -> String {
        let executable = RemindCommand.executablePath()
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        return folder + "/routine-studio"
    }
}
