import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The phones paired with this account's studios, in the studio's state folder
/// (`$XDG_STATE_HOME/routine/studio-devices`, else `~/.local/state/routine/studio-devices`), so
/// a pairing outlives the studio. A line a phone: the SHA-256 of its credential (never the
/// credential), its name, when it was paired, last seen and revoked (seconds since 1970; 0
/// for not revoked), tab-separated. Every change reads, changes and replaces the file under a
/// lock, so that `devices --revoke` in one process and a running studio's "last seen" in
/// another never undo each other.
final class PairedDevices: Sendable {
    struct Device: Equatable, Sendable {
        var hash: String
        var name: String
        var paired: Int
        var lastSeen: Int
        /// When it was revoked; 0 while it is not.
        var revoked: Int
    }

    enum Lookup: Equatable {
        case phone(String)
        case revoked(String)
        case unknown
    }

    let path: String
    /// "Last seen" is written at most this often a phone.
    static let seenResolution = 60
    private let state = Mutex<(devices: [Device], stamp: [Int], loaded: Bool)>(([], [], false))

    init(path: String) { self.path = path }

    /// The file's place under the environment's XDG_STATE_HOME (absolute only) or HOME.
    static func defaultPath(environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/routine/studio-devices" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.local/state/routine/studio-devices" }
        return nil
    }

    /// A name a person may give a phone: 1 to 40 characters, no control character.
    static func validName(_ name: String) -> Bool {
        (1...40).contains(name.count) && name.unicodeScalars.allSatisfy { !($0.properties.generalCategory == .control || $0 == "\u{7F}") }
            && name.trimmingSpaces == name
    }

    // MARK: The running studio

    /// Who `credential` is: a paired phone, one revoked, or nobody. A phone's "last seen" is
    /// kept at `now` (seconds since 1970).
    func lookup(credential: String, now: Int) -> Lookup {
        let hash = SHA256.hex(credential)
        let found: Device? = state.withLock { state in
            reloadIfChanged(&state)
            return state.devices.first { StudioSecurity.same($0.hash, hash) }
        }
        guard let found else { return .unknown }
        if found.revoked != 0 { return .revoked(found.name) }
        if now - found.lastSeen >= Self.seenResolution {
            _ = try? change { devices in
                for i in devices.indices where devices[i].hash == hash { devices[i].lastSeen = max(devices[i].lastSeen, now) }
            }
        }
        return .phone(found.name)
    }

    /// Whether a phone not revoked is named `name`.
    func isTaken(_ name: String) -> Bool {
        state.withLock { state in
            reloadIfChanged(&state)
            return state.devices.contains { $0.name == name && $0.revoked == 0 }
        }
    }

    /// Pairs a phone named `name`: its new credential, of which only the hash is kept.
    func pair(name: String, now: Int) throws(StudioError) -> String {
        let credential = StudioServer.randomToken()
        let device = Device(hash: SHA256.hex(credential), name: name, paired: now, lastSeen: now, revoked: 0)
        var taken = false
        try change { devices in
            taken = devices.contains { $0.name == name && $0.revoked == 0 }
            if !taken { devices.append(device) }
        }
        if taken { throw StudioError(.conflict, message: PairingMessages.nameTaken(name)) }
        return credential
    }

    // MARK: `routine studio devices`

    /// The phones, in the order they were paired.
    func list() -> [Device] {
        state.withLock { state in
            reloadIfChanged(&state)
            return state.devices
        }
    }

    /// Revokes the phone named `name`; false when no phone not revoked has that name.
    func revoke(_ name: String, now: Int) throws(StudioError) -> Bool {
        var found = false
        try change { devices in
            for i in devices.indices where devices[i].name == name && devices[i].revoked == 0 {
                devices[i].revoked = now
                found = true
            }
        }
        return found
    }

    // MARK: The file

    private func reloadIfChanged(_ state: inout (devices: [Device], stamp: [Int], loaded: Bool)) {
        let stamp = Self.stamp(path)
        guard !state.loaded || stamp != state.stamp else { return }
        state.devices = Self.parse(Self.contents(path) ?? [])
        state.stamp = stamp
        state.loaded = true
    }

    /// Reads, changes and replaces the file under its lock.
    private func change(_ edit: (inout [Device]) -> Void) throws(StudioError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        Self.makeFolders(folder)
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Self.failure(path) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        var devices = Self.parse(Self.contents(path) ?? [])
        edit(&devices)
        let text = devices.map { "\($0.hash)\t\($0.name)\t\($0.paired)\t\($0.lastSeen)\t\($0.revoked)\n" }.joined()
        let temporary = path + ".new"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(temporary) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else { throw Self.failure(path) }
        state.withLock { state in
            state.devices = devices
            state.stamp = Self.stamp(path)
            state.loaded = true
        }
    }

    private static func failure(_ path: String) -> StudioError {
        StudioError(.internalServerError, message: PairingMessages.cannotWrite(path, String(cString: strerror(errno))))
    }

    static func parse(_ bytes: [UInt8]) -> [Device] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields[0].utf8.count == 64, let paired = Int(fields[2]), let seen = Int(fields[3]), let revoked = Int(fields[4])
            else { return nil }
            return Device(hash: fields[0], name: fields[1], paired: paired, lastSeen: seen, revoked: revoked)
        }
    }

    private static func stamp(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    private static func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return bytes
    }

    private static func makeFolders(_ folder: String) {
        var prefix = ""
        for part in folder.split(separator: "/") {
            prefix += "/" + part
            mkdir(prefix, 0o700)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
