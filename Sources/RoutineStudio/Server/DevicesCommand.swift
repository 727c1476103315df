#if canImport(Glibc)
import Glibc
#endif

/// `routine studio devices [--revoke NAME]`: the paired phones, each with when it was paired
/// and last seen, or one of them revoked. Names are printed as they were checked when paired
/// (no control characters).
public enum DevicesCommand {
    /// Runs it on the file at `path` (``PairedDevices/defaultPath(environment:)``); the text for
    /// standard output, or an error's message, and the exit status.
    public static func run(path: String?, revoke: String?, now: Int = Int(time(nil))) -> (output: String, error: String?, status: Int32) {
        guard let path else { return ("", PairingMessages.noStateFolder, 1) }
        let devices = PairedDevices(path: path)
        if let revoke {
            do {
                guard try devices.revoke(revoke, now: now) else { return ("", PairingMessages.unknownDevice(revoke), 1) }
            } catch { return ("", error.message, 1) }
            return ("revoked '\(revoke)': it is refused from now on\n", nil, 0)
        }
        let list = devices.list()
        if list.isEmpty { return ("no phone is paired; 'routine studio FILE --allow-host NAME --pair' pairs one\n", nil, 0) }
        let width = list.map(\.name.count).max() ?? 0
        return (
            list.map { device in
                let state = device.revoked != 0 ? "revoked \(Self.clock(device.revoked))" : "last seen \(Self.clock(device.lastSeen))"
                return device.name + String(repeating: " ", count: width - device.name.count) + "  paired \(Self.clock(device.paired))  \(state)\n"
            }.joined(), nil, 0
        )
    }

    /// The default place of the paired phones' file, from the process's environment.
    public static func defaultPath() -> String? {
        PairedDevices.defaultPath { getenv($0).map { String(cString: $0) } }
    }

    /// `seconds` since 1970 in local time, to the minute.
    static func clock(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { String(n).leftPadded(to: 2) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }
}
