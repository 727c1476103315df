#if canImport(Glibc)
import Glibc
#endif

/// Tells the user's status bars (waybar, i3blocks) to show the day again after the history
/// changed: SIGRTMIN+N, N from `ROUTINE_BAR_SIGNAL`, the `signal` setting of the bar's module.
/// Without that variable nothing is sent, so a bar set up for other signals is left alone.
public enum BarSignal {
    /// The environment variable that holds N.
    public static let variable = "ROUTINE_BAR_SIGNAL"
    /// The programs signalled: a process's name as /proc/PID/comm gives it.
    static let bars: Set<String> = ["waybar", "i3blocks"]

    /// Signals every bar process of this user; a no-op unless `ROUTINE_BAR_SIGNAL` is 1 to 30.
    public static func send() {
        guard let text = getenv(variable), let n = Int32(String(cString: text)), (1...30).contains(n),
            let folder = opendir("/proc")
        else { return }
        defer { closedir(folder) }
        let signal = 34 + n  // SIGRTMIN on Linux with glibc, as waybar and i3blocks count it
        let user = getuid()
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid > 0, bars.contains(command(of: name)) else { continue }
            var info = stat()
            if stat("/proc/" + name, &info) == 0, info.st_uid == user { kill(pid, signal) }
        }
    }

    /// /proc/PID/comm without its line break; "" when it cannot be read.
    static func command(of pid: String) -> String {
        let fd = open("/proc/" + pid + "/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return "" }
        return String(decoding: buffer[..<n].prefix { $0 != 10 }, as: UTF8.self)
    }
}
