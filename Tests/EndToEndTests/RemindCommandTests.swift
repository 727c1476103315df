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
        let name = "routine-mornin-100"
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

        let removed = try execute(["remind", file, "--at", "07:30", "--uninstall"], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: units + ".timer") && !FileManager.default.fileExists(atPath: units + ".service"))
        #expect(try execute(["remind", file, "--at", "07:30", "--uninstall"], environment: environment).status == 1)
    }

    @Test func withoutInstallTheUnitsArePrinted() throws {
        let printed = try execute(["remind", "routines/morning.rt", "--at", "7:5"])
        #expect(printed.status == 64 && printed.stderr.contains("--at '7:5' is not a time of day such as 07:30"))
        let days = try execute(["remind", "routines/morning.rt", "--at", "21:05", "--on", "sat", "sun"])
        #expect(days.status == 0)
        #expect(days.stdout.hasPrefix("# routine-morning.service\n[Unit]\nDescription=Reminder of the routine 'Morning'\n"))
        #expect(days.stdout.contains("\nOnCalendar=Sat,Sun *-*-* 21:05:00\n"))
        #expect(days.stdout.contains("Description=Reminder of the routine 'Morning' at 21:05 on weekends\n"))
    }
}
