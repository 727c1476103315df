#if canImport(Glibc)
import Glibc
#endif

/// Where the run history lives, or that there is none.
public enum HistoryLocation: Hashable, Sendable {
    /// Runs are neither read from nor written to any history.
    case off
    case file(String)

    /// The history a command uses: `--history FILE`; else `$ROUTINE_HISTORY` (`off` turns it
    /// off); else `$XDG_DATA_HOME/routine/history.sqlite`; else
    /// `~/.local/share/routine/history.sqlite`. `--no-history` wins over all of them.
    /// Nil when none of these names a place (no `HOME`).
    public static func resolve(flag: String?, disabled: Bool, environment: (String) -> String? = Self.variable) -> HistoryLocation? {
        if disabled { return .off }
        if let flag { return .file(flag) }
        if let named = environment("ROUTINE_HISTORY"), !named.isEmpty {
            return named == "off" ? .off : .file(named)
        }
        // The XDG rules ignore a relative XDG_DATA_HOME.
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return .file(data + "/routine/history.sqlite")
        }
        if let home = environment("HOME"), !home.isEmpty {
            return .file((home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share/routine/history.sqlite")
        }
        return nil
    }

    /// Reads one environment variable.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
