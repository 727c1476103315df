import Foundation
import Testing

/// `routine remind`: the units printed, installed into a temporary XDG_CONFIG_HOME and passed
/// through `systemd-analyze --user verify`, and removed.
struct RemindCommandTests {
    @Test func installedUnitsPassSystemdVerifyAndUninstallRemovesThem() throws {
        let dir = try temporaryDirectory()
        // A name and a path that need quoting and escaping in a unit file.
        let folder = dir.appendingPathComponent("my $HOME 100%").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/morning.rt"
        try "routine \"Mornin' \\\"100%\\\"\"\nhabit water \"Water\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("config").path
        let runtime = dir.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = ["XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime]

        let installed = try execute(["remind", file, "--at", "07:30", "--weekdays", "--install"], environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let name = try #require(unitName(installed.stdout))
        #expect(name.hasPrefix("routine-mornin-100-"))
        #expect(installed.stdout.hasSuffix("to start it: systemctl --user daemon-reload && systemctl --user enable --now \(name).timer\n"))
        let units = config + "/systemd/user/" + name
        let timer = try String(contentsOfFile: units + ".timer", encoding: .utf8)
        let service = try String(contentsOfFile: units + ".service", encoding: .utf8)
        #expect(timer.contains("\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 07:30:00\n") && timer.contains("\nPersistent=true\n"))
        #expect(service.contains("\nEnvironment=DBUS_SESSION_BUS_ADDRESS=unix:path=%t/bus\n"))
        #expect(service.contains(#" "today" "--notify" "--history" "#) && service.contains(#"/my $$HOME 100%%/morning.rt""#), "\(service)")

        // The manager's own checks, as a user manager would load the units; any complaint fails.
        let verify = try shell("systemd-analyze --user verify '\(units).timer' '\(units).service'", environment: environment)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")

        // --uninstall needs no --at.
        let removed = try execute(["remind", file, "--uninstall"], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: units + ".timer") && !FileManager.default.fileExists(atPath: units + ".service"))
        #expect(try execute(["remind", file, "--at", "07:30", "--uninstall"], environment: environment).status == 1)
    }

    /// The unit's name in `remind --install`'s first line: "wrote FOLDER/NAME.service and .timer".
    func unitName(_ stdout: String) -> String? {
        guard let line = stdout.split(separator: "\n").first, line.hasPrefix("wrote "), line.hasSuffix(".service and .timer") else { return nil }
        return line.dropLast(".service and .timer".count).split(separator: "/").last.map(String.init)
    }

    /// A config folder and a runtime folder, as a user manager has them.
    func unitEnvironment(_ dir: URL) throws -> (environment: [String: String], units: String) {
        let config = dir.appendingPathComponent("config").path
        let runtime = dir.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (["XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime], config + "/systemd/user/")
    }

    /// Writes a routine called `name` into a folder of its own under `dir`.
    func routineFile(_ name: String, in dir: URL, folder: String) throws -> String {
        let path = dir.appendingPathComponent(folder).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "routine \"\(name)\"\nhabit water \"Water\"\n".write(toFile: path + "/r.rt", atomically: true, encoding: .utf8)
        return path + "/r.rt"
    }

    @Test(arguments: [("Утро", "Вечер"), ("Work: day", "Work-Day"), ("Morning", "morning")])
    func routinesWhoseReadableNamesCollideGetUnitsOfTheirOwn(_ first: String, _ second: String) throws {
        let dir = try temporaryDirectory()
        let (environment, units) = try unitEnvironment(dir)
        let a = try routineFile(first, in: dir, folder: "a")
        let b = try routineFile(second, in: dir, folder: "b")
        let one = try execute(["remind", a, "--at", "7:00", "--install"], environment: environment)
        let two = try execute(["remind", b, "--at", "8:00", "--install"], environment: environment)
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        let nameA = try #require(unitName(one.stdout))
        let nameB = try #require(unitName(two.stdout))
        #expect(nameA != nameB)
        #expect(try String(contentsOfFile: units + nameA + ".timer", encoding: .utf8).contains("07:00:00"))
        #expect(try String(contentsOfFile: units + nameB + ".timer", encoding: .utf8).contains("08:00:00"))
        // Removing one leaves the other.
        #expect(try execute(["remind", a, "--uninstall"], environment: environment).status == 0)
        #expect(!FileManager.default.fileExists(atPath: units + nameA + ".service"))
        #expect(
            FileManager.default.fileExists(atPath: units + nameB + ".service") && FileManager.default.fileExists(atPath: units + nameB + ".timer"))
    }

    @Test(arguments: [
        ("[Unit]\nDescription=mine\n", "was not written by 'routine remind'"),
        ("[Unit]\nX-Routine=\"Evening\"\n", "is the reminder of another routine, 'Evening'"),
    ])
    func aUnitOfTheSameNameThatIsNotThisRoutinesIsNeitherReplacedNorRemoved(_ text: String, _ message: String) throws {
        let dir = try temporaryDirectory()
        let (environment, units) = try unitEnvironment(dir)
        let file = try routineFile("Morning", in: dir, folder: "a")
        let printed = try execute(["remind", file, "--at", "07:30"], environment: environment)
        let name = try #require(printed.stdout.split(separator: "\n").first.map { String($0.dropFirst(2).dropLast(".service".count)) })
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try text.write(toFile: units + name + ".service", atomically: true, encoding: .utf8)
        for arguments in [["--at", "07:30", "--install"], ["--uninstall"]] {
            let refused = try execute(["remind", file] + arguments, environment: environment)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("error[E041]: '\(name).service' in '\(units.dropLast())' \(message)"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: units + name + ".service", encoding: .utf8) == text)
            #expect(!FileManager.default.fileExists(atPath: units + name + ".timer"))
        }
    }

    /// Control characters in the path are written as C escapes, which systemd reads back as the
    /// same bytes; the units pass systemd-analyze, run by `remind` itself and by the test.
    @Test(arguments: ["cr\rin", "lf\nand\ttab", "quote\"\u{301} and \\", "esc\u{1B}[31m and \u{85}"])
    func controlCharactersInThePathAreEscapedAsSystemdReadsThem(_ folder: String) throws {
        let dir = try temporaryDirectory()
        let (environment, units) = try unitEnvironment(dir)
        let file = try routineFile("Morning", in: dir, folder: folder)
        let installed = try execute(["remind", file, "--at", "07:30", "--install"], environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let name = try #require(unitName(installed.stdout))
        let service = try String(contentsOfFile: units + name + ".service", encoding: .utf8)
        let execLines = service.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        #expect(execLines.count == 1 && !service.contains("\r"), "\(service)")
        let verify = try shell("systemd-analyze --user verify '\(units + name).timer' '\(units + name).service'", environment: environment)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }

    /// systemd reads the escaped path back as the same bytes: `verify` refuses an executable
    /// it cannot find, so the binary is linked into a folder with the hard characters that
    /// systemd allows in an executable's name, and named by the unit. (Spaces, quotes and
    /// backslashes there are refused by systemd, and so by `remind`, with E042.)
    @Test(arguments: ["é%n$x", "pct%%$$$", "ü-ß.d"])
    func theEscapedExecutableIsFoundWhereSystemdReadsIt(_ folder: String) throws {
        let dir = try temporaryDirectory()
        let (environment, units) = try unitEnvironment(dir)
        let file = try routineFile("Morning", in: dir, folder: folder)
        let binary = (file as NSString).deletingLastPathComponent + "/routine"
        try FileManager.default.linkItem(atPath: routineBinary.path, toPath: binary)
        let installed = try shell(
            "\"$BINARY\" remind \"$FILE\" --at 07:30 --install", environment: environment.merging(["BINARY": binary, "FILE": file]) { $1 })
        #expect(installed.status == 0, "\(installed.stderr)")
        let name = try #require(unitName(installed.stdout))
        let service = try String(contentsOfFile: units + name + ".service", encoding: .utf8)
        #expect(service.contains("ExecStart=\""), "\(service)")
        let verify = try shell("systemd-analyze --user verify '\(units + name).timer' '\(units + name).service'", environment: environment)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
        try FileManager.default.removeItem(atPath: binary)
        let missing = try shell("systemd-analyze --user verify '\(units + name).service'", environment: environment)
        #expect(missing.stderr.contains("is not executable"), "the check finds the binary by the escaped name: \(missing.stderr)")
    }

    @Test func aPathThatIsNotUTF8IsRefusedAndNothingWritten() throws {
        let dir = try temporaryDirectory()
        let (environment, units) = try unitEnvironment(dir)
        let made = try shell(
            "mkdir \"$(printf 'caf\\351')\" && printf 'routine \"Morning\"\\nhabit water \"Water\"\\n' > \"$(printf 'caf\\351')/m.rt\"", in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let refused = try shell("\"$ROUTINE\" remind \"$(printf 'caf\\351')/m.rt\" --at 7:30 --install", environment: environment, in: dir)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("error[E040]: the path 'caf\\xE9/m.rt' is not valid UTF-8: a systemd unit cannot name it"), "\(refused.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: units))?.isEmpty ?? true)
    }

    @Test func withoutInstallTheUnitsArePrinted() throws {
        for wrong in ["7:5", "24:00", "007:30", "7:60", "+7:30", "7"] {
            let printed = try execute(["remind", "routines/morning.rt", "--at", wrong])
            #expect(printed.status == 64 && printed.stderr.contains("--at '\(wrong)' is not a time of day such as 07:30"), "\(wrong)")
        }
        let early = try execute(["remind", "routines/morning.rt", "--at", "6:45"])
        #expect(early.status == 0 && early.stdout.contains("\nOnCalendar=*-*-* 06:45:00\n"), "\(early.stderr)")
        #expect(try execute(["remind", "routines/morning.rt"]).stderr.contains("--at HH:MM is needed"))
        let days = try execute(["remind", "routines/morning.rt", "--at", "21:05", "--on", "sat", "sun"])
        #expect(days.status == 0)
        #expect(days.stdout.hasPrefix("# routine-morning-"))
        #expect(days.stdout.contains(".service\n[Unit]\nDescription=Reminder of the routine 'Morning'\nX-Routine=\"Morning\"\n"))
        #expect(days.stdout.contains("\nOnCalendar=Sat,Sun *-*-* 21:05:00\n"))
        #expect(days.stdout.contains("Description=Reminder of the routine 'Morning' at 21:05 on weekends\n"))
    }
}
