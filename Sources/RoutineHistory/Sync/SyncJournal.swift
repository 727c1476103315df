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

    /// A journal file as `stat` saw it, by its path below the folder. The change time too:
    /// a hand edit that keeps a file's size (a blank line put in and taken out, two lines
    /// joined) shows only there, and nothing sets a ctime back.
    struct FileState: Hashable {
        var path: String
        var inode: UInt64
        var size: Int64
        /// Nanoseconds.
        var changed: Int64 = 0

        /// Whether a file as recorded (inode, size, change time) is still as it was.
        func matches(inode: UInt64, size: Int64, changed: Int64) -> Bool {
            self.inode == inode && self.size == size && self.changed == changed
        }
    }

    /// A folder as `stat` saw it: its inode and when its entries last changed. The change
    /// time (ctime), not the mtime: `rsync -a` sets a folder's mtime back to the source's
    /// after renaming a new file into it, and nothing sets a ctime back.
    struct FolderState: Hashable {
        /// Below the sync folder: "" for the folder itself, else a device id.
        var path: String
        var inode: UInt64
        /// Nanoseconds; -1 when unknown (see ``listing(in:except:)``).
        var changed: Int64
    }

    /// What one look at the folder found: its journal files and the folders holding them.
    struct Listing {
        var files: [FileState] = []
        var folders: [FolderState] = []
    }

    /// Every journal file of the other devices (all devices when `own` is nil), and the state
    /// of each folder taken before it was listed, so that a later change shows as another
    /// state. Links are not followed: a folder or file that is a link is passed over.
    static func listing(in folder: String, except own: String?) -> Listing {
        var listing = Listing()
        // The sync folder itself may be a link (~/Sync to another disk): its target counts.
        if let root = kind(folder, follow: true), root.isDirectory {
            listing.folders.append(FolderState(path: "", inode: root.inode, changed: root.changed))
        }
        for device in names(in: folder) where SyncEvent.isID(device.utf8) && device != own {
            guard let info = kind(folder + "/" + device), info.isDirectory else { continue }
            listing.folders.append(FolderState(path: device, inode: info.inode, changed: info.changed))
            listing.files += files(of: device, in: folder)
        }
        // A folder changed within the clock tick it was listed in may change again in that
        // tick and keep its time: its state is recorded as unknown, so it is listed again.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        let tick = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        for k in listing.folders.indices where listing.folders[k].changed >= tick { listing.folders[k].changed = -1 }
        return listing
    }

    /// The journal files in one device's folder.
    static func files(of device: String, in folder: String) -> [FileState] {
        var found: [FileState] = []
        for name in names(in: folder + "/" + device) where name.hasSuffix(".jsonl") && !name.hasPrefix(".") {
            let path = device + "/" + name
            guard let info = kind(folder + "/" + path), info.isFile else { continue }
            found.append(FileState(path: path, inode: info.inode, size: info.size, changed: info.changed))
        }
        return found
    }

    /// Whether `name` is a month's file, `YYYY-MM.jsonl`: the one its device appends to is
    /// its newest; copies by engines or by hand are never appended to.
    static func isMonth(_ name: Substring) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count == 13 && name.hasSuffix(".jsonl") && bytes[4] == UInt8(ascii: "-")
            && (bytes[0..<4] + bytes[5..<7]).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    struct Info {
        var isDirectory, isFile: Bool
        var inode: UInt64
        var size: Int64
        /// The change time (ctime), in nanoseconds.
        var changed: Int64
    }

    static func kind(_ path: String, follow: Bool = false) -> Info? {
        var info = stat()
        if follow {
            guard stat(path, &info) == 0 else { return nil }
        } else {
            guard lstat(path, &info) == 0 else { return nil }
        }
        let type = info.st_mode & S_IFMT
        return Info(
            isDirectory: type == S_IFDIR, isFile: type == S_IFREG, inode: UInt64(info.st_ino), size: Int64(info.st_size),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
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
        let fd = openForReading(path)
        guard fd >= 0 else { return .failure(Failure(reason: systemError())) }
        defer { close(fd) }
        do throws(Failure) {
            return .success(try read(fd, from: offset))
        } catch {
            return .failure(error)
        }
    }

    /// `path` opened to be read, never through a symbolic link; -1 with `errno` when it cannot be.
    static func openForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// The bytes of the open file `fd` from `offset` to its end: read into one array of the
    /// size `fstat` gives, growing only if the file grows meanwhile.
    static func read(_ fd: Int32, from offset: Int64) throws(Failure) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: systemError()) }
        var bytes = [UInt8](repeating: 0, count: max(Int(Int64(info.st_size) - offset), 0) + 1)
        var count = 0
        // Bounded by the file: each pass reads more or ends.
        while true {
            if count == bytes.count { bytes += repeatElement(0, count: max(count, 1 << 16)) }
            let n = try read(fd, into: &bytes[count...], at: offset + Int64(count))
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Reads into `buffer` from `offset` of the open file `fd`: the count read, 0 at its end.
    static func read(_ fd: Int32, into buffer: inout ArraySlice<UInt8>, at offset: Int64) throws(Failure) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if n >= 0 { return n }
            if errno != EINTR { throw Failure(reason: systemError()) }
        }
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
