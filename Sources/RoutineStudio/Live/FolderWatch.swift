import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Hears at once when a file is written or replaced in its folder (inotify on Linux), so that
/// a save in an editor reaches the pages without waiting for the next poll. The folder is
/// watched, not the file: editors that save by writing a new file and renaming it over the
/// old one replace the file a watch on it would follow. Only a finished write (close after
/// writing) or a rename counts, never a write under way, which would show a half-saved file;
/// a deletion is left to the studio's polling, which alone does the work where inotify is not
/// available.
final class FolderWatch: @unchecked Sendable {
    private let source: DispatchSourceRead

    /// Calls `changed` (on a queue of its own) after each write or replacement of `path`.
    init?(path: String, changed: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
        // Only a write finished or a file renamed into place: at a creation or a deletion an
        // editor's save is under way, and reading then would show an empty routine for a moment.
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            close(fd)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "routine-studio.watch"))
        source.setEventHandler {
            if Self.drain(fd, naming: name) { changed() }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        #else
        return nil
        #endif
    }

    deinit { source.cancel() }

    #if os(Linux)
    /// Reads every pending event; true when one of them is about the file named `name`.
    private static func drain(_ fd: Int32, naming name: [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var found = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return found }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let start = offset + header
                let end = min(start + length, count)
                // The name is padded with NULs to its field's length.
                let eventName = buffer[start..<end].prefix { $0 != 0 }
                if eventName.elementsEqual(name) { found = true }
                offset = start + length
            }
        }
    }
    #endif
}
