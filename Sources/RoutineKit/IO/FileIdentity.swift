#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path named at one moment, and in what state: enough to tell, before a file
/// is replaced, that it is still the one that was read and not one an editor saved since.
public struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Glibc)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
    }

    /// Whether both name the same file, whatever its state.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }

    /// The identity of the file `path` leads to (through symbolic links), or nil when there is none.
    public static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        return stat(path, &info) == 0 ? FileIdentity(info) : nil
    }
}

/// Follows symbolic links one hop at a time, so that a link to a file that does not exist yet
/// still leads to the path where it will be created. Returns nil on a loop.
func resolvingLinks(_ path: String) -> String? {
    var current = path
    for _ in 0..<40 {
        var info = stat()
        guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(current, &buffer, buffer.count - 1)
        guard count >= 0 else { return current }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        current = target.utf8.first == UInt8(ascii: "/") ? target : folder(of: current) + target
    }
    return nil
}

/// The folder part of `path`, with its final slash ("" for a bare name).
func folder(of path: String) -> String {
    // By bytes: a slash followed by a combining mark is one Character, but still a slash.
    path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[...$0]) } ?? ""
}
