import ArgumentParser
import RoutineHistory

#if canImport(Glibc)
import Glibc
#endif

/// `routine studio`: `routine studio FILE` serves FILE (``StudioServeCommand``, the default),
/// and `routine studio devices` lists the paired phones. ArgumentParser gives a command's own
/// arguments the first word, so FILE is the default subcommand's, and `devices` can be matched.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Edit a routine in the browser: a visual builder over the file, which stays the only truth.",
        discussion: "'routine studio FILE' serves FILE (see 'routine studio serve --help'); 'routine studio devices' lists the paired phones.",
        subcommands: [StudioServeCommand.self, StudioDevicesCommand.self],
        defaultSubcommand: StudioServeCommand.self
    )
}

struct StudioServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Edit a routine in the browser: a visual builder over the file, which stays the only truth.",
        discussion: """
            Prints the address (http://127.0.0.1:PORT/?token=TOKEN) as the first line and serves until Ctrl-C or \
            SIGTERM. Only this machine, with the token, can use it; ROUTINE_STUDIO_TOKEN sets the token (at least \
            32 characters of 0-9 and a-f). --open gives the browser a one-time address instead, which holds no \
            token. A file that does not exist yet is created by the first edit. See docs/studio.md.

            Behind your own HTTPS (tailscale serve, Caddy), --allow-host NAME lets in requests for NAME; --pair \
            prints an address that pairs a phone, with its QR code. See docs/phone.md.
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

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "Also serve requests for NAME (any port) from https://NAME, as a reverse proxy that ends HTTPS sends them; repeatable. NAME:PORT names the port phones reach the proxy on, when it is not 443, for the pairing address. The studio still listens on this machine only.",
            valueName: "name[:port]"))
    var allowHosts: [String] = []

    @Flag(help: "Print an address (and, on a terminal, its QR code) that pairs a phone through the first --allow-host name.")
    var pair = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        for name in allowHosts where !Self.isHostAndPort(name) {
            throw ValidationError(
                "--allow-host '\(name)' is not a host name: letters, digits, '-' and '.', with no scheme, and then maybe ':PORT' (1 to 65535)")
        }
        if pair && allowHosts.isEmpty {
            throw ValidationError("--pair needs --allow-host NAME: a phone reaches the studio by that name, through HTTPS")
        }
    }

    /// `NAME` or `NAME:PORT`: the port, 1 to 65535, is where phones reach the proxy when it is
    /// not 443, and the pairing address holds it (docs/phone.md).
    static func isHostAndPort(_ value: String) -> Bool {
        guard let colon = value.lastIndex(of: ":") else { return isHostName(value) }
        let port = value[value.index(after: colon)...]
        return isHostName(String(value[..<colon])) && port.utf8.allSatisfy { (0x30...0x39).contains($0) } && port.first != "0"
            && Int(port).map { (1...65535).contains($0) } == true
    }

    /// A DNS name: labels of letters, digits and '-', split by dots.
    static func isHostName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 253 && !labels.isEmpty
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.utf8.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || (0x30...0x39).contains($0) || $0 == 0x2D }
            }
    }

    func run() throws {
        var historyPath = ""
        if case .file(let path)? = HistoryLocation.resolve(flag: history.history, disabled: noHistory) { historyPath = path }
        // The server is a program of its own (see Sources/routine-studio), installed beside
        // this one: the token stays in the environment, where ROUTINE_STUDIO_TOKEN put it.
        let words =
            [file, String(port), open ? "open" : "stay", historyPath] + (exitWhenIdle ? ["idle"] : [])
            + allowHosts.map { "host=\($0)" } + (pair ? ["pair"] : [])
        try Self.exec(words)
    }

    /// Replaces this process with `routine-studio WORDS…`.
    static func exec(_ words: [String]) throws -> Never {
        let program = serverPath()
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + words).map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        StandardError.write(
            visible: "routine: error: cannot start the studio's server '\(program)': \(reason); "
                + "the install (docs/install.md) puts 'routine-studio' beside 'routine'\n")
        throw Exit.programMissing
    }

    /// `routine-studio` in the folder of the running executable.
    static func serverPath() -> String {
        let executable = RemindCommand.executablePath()
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        return folder + "/routine-studio"
    }
}

/// `routine studio devices`: the phones paired with the studio, or one revoked. The list lives
/// in the studio's state folder; the studio's server reads and writes it, so this replaces
/// itself with that program too.
struct StudioDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the phones paired with the studio, with when each was last seen, or revoke one.",
        discussion: "A revoked phone is refused from then on, and its page says so. See docs/phone.md.")

    @Option(help: ArgumentHelp("End the pairing of the phone named NAME.", valueName: "name"))
    var revoke: String?

    func run() throws {
        try StudioServeCommand.exec(["devices"] + (revoke.map { ["revoke", $0] } ?? []))
    }
}
