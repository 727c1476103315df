import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The files of a sync folder: `FOLDER/<device id>/<YYYY-MM>.jsonl`, and the copies that
/// engines make of them (`….sync-conflict-….jsonl`). Only reading here, and appending to this
/// device's own files: nothing in a journal names a place to write.
enum SyncJournal {
    /// Why a file cannot be read or written, as `strerror` says it.
    struct Failure: Error {
        var reason: String
    }

    /// A journal file as `stat` saw it, by its path below the folder.
    struct FileState: Hashable {
        var path: String
        var inode: UInt64
        var size: Int64
    }

    /// Every journal file of the other devices (all devices when `own` is nil). Links are
    /// not followed: a folder or file that is a link is passed over.
    static func files(in folder: String, except own: String?) -> [FileState] {
        var found: [FileState] = []
        for device in names(in: folder) where SyncEvent.isID(device.utf8) && device != own {
            guard kind(folder + "/" + device)?.isDirectory == true else { continue }
            for name in names(in: folder + "/" + device) where name.hasSuffix(".jsonl") && !name.hasPrefix(".") {
                let path = device + "/" + name
                guard let info = kind(folder + "/" + path), info.isFile else { continue }
                found.append(FileState(path: path, inode: info.inode, size: info.size))
            }
        }
        return found
    }

    struct Info {
        var isDirectory, isFile: Bool
        var inode: UInt64
        var size: Int64
    }

    static func kind(_ path: String) -> Info? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        return Info(isDirectory: type == S_IFDIR, isFile: type == S_IFREG, inode: UInt64(info.st_ino), size: Int64(info.st_size))
    }

    static func names(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes of `path` from `offset` to its end, or the reason it cannot be read.
    static func read(_ path: String, from offset: Int64) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(reason: systemError())) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var at = off_t(offset)
        // Bounded by the file: each pass reads more or ends.
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, at) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(reason: systemError()))
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            at += off_t(n)
        }
        return .success(bytes)
    }

    /// Creates `path` as a folder of mode 0700 if it is missing; the reason when it cannot.
    static func makeFolder(_ path: String) -> String? {
        if mkdir(path, 0o700) == 0 || errno == EEXIST {
            guard let info = kind(path), info.isDirectory else { return "it is not a folder" }
            return nil
        }
        return systemError()
    }

    /// Appends `lines` to `path` (created with mode 0600), each in one `write` with its
    /// newline, then makes them durable. Returns the file's size before and after, or why not.
    static func append(_ lines: [String], to path: String) -> Result<(before: Int64, after: Int64), Failure> {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(Failure(reason: systemError())) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(reason: systemError())) }
        let before = Int64(info.st_size)
        for line in lines {
            let error = writeFully(fd, Array((line + "\n").utf8))
            if error != 0 {
                // A full disk may take part of a line: what was written is taken back whole.
                _ = ftruncate(fd, off_t(before))
                return .failure(Failure(reason: String(cString: strerror(error)).lowercased()))
            }
        }
        guard fsync(fd) == 0, fstat(fd, &info) == 0 else { return .failure(Failure(reason: systemError())) }
        return .success((before, Int64(info.st_size)))
    }
}
