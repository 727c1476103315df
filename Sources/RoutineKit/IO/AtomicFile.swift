#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees half of one and nothing about the file but its
/// bytes changes: the bytes go to a temporary file in the target's folder, which takes the
/// old file's owner, mode and extended attributes, is flushed, and is renamed over the target.
/// A symbolic link is written through; a device, FIFO or `/dev/stdout` is written directly,
/// because a rename would replace it. If anything fails, the original file is untouched.
public enum AtomicFile {
    /// Why a file is written, which decides what may be replaced.
    public enum Purpose: Sendable, Equatable {
        /// An output named by the user (`-o`): a new file, a regular file, or a stream.
        case output
        /// A file rewritten in place (`fmt --write`): only a regular file, and only while it is
        /// still the one that was read (nil: no check).
        case rewrite(expecting: FileIdentity?)
        /// A new file only (a conversion written beside its source): never one that exists,
        /// even one that appears while this one is being written.
        case create
        /// A file this program draws again and again (the language server's SVG beside a
        /// document): created, or replacing only a regular file that holds `marker` in its
        /// first kilobyte, which this program writes into each one. Never written through a
        /// symbolic link, and never over the file `sparing` (the document drawn).
        case replaceOwn(marker: [UInt8], sparing: FileIdentity?)
    }

    public static func write(_ bytes: [UInt8], to path: String, purpose: Purpose = .output) -> Result<Void, Diagnostic> {
        bytes.withUnsafeBufferPointer { write($0, to: path, purpose: purpose) }
    }

    public static func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, purpose: Purpose = .output) -> Result<Void, Diagnostic> {
        writeIdentified(bytes, to: path, purpose: purpose).map { _ in () }
    }

    /// Writes the file with `produce`, which gets the descriptor to write to and returns a
    /// diagnostic if it failed (the old file is then kept).
    public static func write(to path: String, purpose: Purpose = .output, produce: (Int32) -> Diagnostic?) -> Result<Void, Diagnostic> {
        writeIdentified(to: path, purpose: purpose, produce: produce).map { _ in () }
    }

    /// Writes `bytes` as `write` does and gives the identity of the file written (nil for a
    /// stream or device), taken from the new file's own descriptor before it took the target's
    /// name: a change anyone makes after the rename, even a moment after, differs from it.
    public static func writeIdentified(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, purpose: Purpose) -> Result<FileIdentity?, Diagnostic> {
        writeIdentified(to: path, purpose: purpose) { fd in
            let failure = writeFully(fd, bytes)
            return failure == 0 ? nil : .unwritable(path, reason: InputReader.describe(failure))
        }
    }

    private static func writeIdentified(to path: String, purpose: Purpose, produce: (Int32) -> Diagnostic?) -> Result<FileIdentity?, Diagnostic> {
        if let stream = standardStream(path) {
            if case .rewrite = purpose { return .failure(.unwritable(path, reason: "it is not a regular file")) }
            return produce(stream).map { .failure($0) } ?? .success(nil)
        }
        if case .replaceOwn(let marker, let sparing) = purpose {
            return replaceOwn(path, marker: marker, sparing: sparing, produce: produce)
        }
        guard let target = resolvingLinks(path) else {
            return .failure(.unwritable(path, reason: InputReader.describe(ELOOP)))
        }
        var info = stat()
        guard lstat(target, &info) == 0 else {
            if case .rewrite = purpose { return .failure(.unwritable(path, reason: "it no longer exists")) }
            return replace(target, shownAs: path, keeping: nil, expecting: nil, creating: purpose == .create, produce: produce)
        }
        if purpose == .create { return .failure(.unwritable(path, reason: alreadyExists)) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { return .failure(.unwritable(path, reason: InputReader.describe(EISDIR))) }
        guard kind == S_IFREG else {
            if case .rewrite = purpose { return .failure(.unwritable(path, reason: "it is not a regular file")) }
            return writeDirectly(target, shownAs: path, produce: produce)
        }
        if let refusal = refusal(toReplace: target, info) { return .failure(.unwritable(path, reason: refusal)) }
        var expected: FileIdentity? = nil
        if case .rewrite(let identity) = purpose {
            expected = identity
            if let identity, identity != FileIdentity(info) { return .failure(.unwritable(path, reason: changedSinceRead)) }
        }
        return replace(target, shownAs: path, keeping: info, expecting: expected, creating: false, produce: produce)
    }

    /// Why `path` cannot be rewritten in place at all (not a regular file), checked before it is read.
    public static func refusalToRewrite(_ path: String) -> String? {
        guard standardStream(path) == nil else { return "it is not a regular file" }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFREG ? nil : "it is not a regular file"
    }

    static let changedSinceRead = "it changed after it was read (saved by an editor?); it was left as it is now"

    /// Why an existing regular file must not be replaced, if it must not.
    private static func refusal(toReplace target: String, _ info: stat) -> String? {
        // A rename would replace a read-only file without complaint (and root ignores the
        // bits anyway), but read-only means "do not change this": respect it.
        if info.st_mode & 0o222 == 0 { return "the file is read-only" }
        if access(target, W_OK) != 0 { return InputReader.describe(errno) }
        if info.st_nlink > 1 {
            return "it has \(info.st_nlink) hard links, and replacing it would split them apart; write to a new file instead"
        }
        return nil
    }

    private static func replaceOwn(
        _ path: String, marker: [UInt8], sparing: FileIdentity?, produce: (Int32) -> Diagnostic?
    ) -> Result<FileIdentity?, Diagnostic> {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { return .failure(.unwritable(path, reason: InputReader.describe(errno))) }
            return replace(path, shownAs: path, keeping: nil, expecting: nil, creating: true, produce: produce)
        }
        let kind = info.st_mode & S_IFMT
        let refusal: String? =
            if kind == S_IFLNK {
                "it is a symbolic link, and a drawing is never written through one; it was left as it is"
            } else if kind != S_IFREG {
                "it is not a regular file; it was left as it is"
            } else if let sparing, sparing.isSameFile(as: FileIdentity(info)) {
                "it is the document itself; it was left as it is"
            } else if !holds(marker, atStartOf: path) {
                "it was not drawn by routine, so it is not replaced; move it away or rename the routine's file"
            } else {
                refusal(toReplace: path, info)
            }
        if let refusal { return .failure(.unwritable(path, reason: refusal)) }
        return replace(path, shownAs: path, keeping: info, expecting: FileIdentity(info), creating: false, produce: produce)
    }

    /// Whether the first kilobyte of the regular file `path` (not followed through a link) holds `marker`.
    private static func holds(_ marker: [UInt8], atStartOf path: String) -> Bool {
        guard !marker.isEmpty else { return false }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        guard count >= marker.count else { return false }
        return (0...(count - marker.count)).contains { start in buffer[start..<(start + marker.count)].elementsEqual(marker) }
    }

    /// `/dev/stdout`, `/dev/fd/N` and `/proc/self/fd/N` name a descriptor this process already has.
    private static func standardStream(_ path: String) -> Int32? {
        let named = ["/dev/stdout": 1, "/dev/stderr": 2]
        if let fd = named[path] { return Int32(fd) }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            if let fd = Int32(path.dropFirst(prefix.count)), fcntl(fd, F_GETFD) >= 0 { return fd }
        }
        return nil
    }

    private static func writeDirectly(_ target: String, shownAs path: String, produce: (Int32) -> Diagnostic?) -> Result<FileIdentity?, Diagnostic> {
        let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unwritable(path, reason: InputReader.describe(errno))) }
        defer { close(fd) }
        return produce(fd).map { .failure($0) } ?? .success(nil)
    }

    /// The reason a new file is not written over one that exists.
    public static let alreadyExists = "it already exists; it was left as it is"

    /// `creating`: the temporary file is linked to the target's name, which fails if a file
    /// of that name has appeared meanwhile, where a rename would replace it.
    private static func replace(
        _ target: String, shownAs path: String, keeping old: stat?, expecting expected: FileIdentity?, creating: Bool,
        produce: (Int32) -> Diagnostic?
    ) -> Result<FileIdentity?, Diagnostic> {
        // A short fixed name, so that a file whose own name is 255 bytes can still be replaced.
        let place = folder(of: target)
        var template = Array((place + ".routine-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(.unwritable(path, reason: InputReader.describe(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ diagnostic: Diagnostic) -> Result<FileIdentity?, Diagnostic> {
            close(fd)
            unlink(temporary)
            return .failure(diagnostic)
        }
        if let diagnostic = produce(fd) { return fail(diagnostic) }
        if let refusal = take(old, of: target, to: fd) { return fail(.unwritable(path, reason: refusal)) }
        if fsync(fd) != 0 { return fail(.unwritable(path, reason: InputReader.describe(errno))) }
        // What this write made, known before the file takes its name: taken after the rename,
        // it would also cover whatever another writer did in between (the folder's flush
        // below takes milliseconds), and that change would pass for this one.
        var written = stat()
        if fstat(fd, &written) != 0 { return fail(.unwritable(path, reason: InputReader.describe(errno))) }
        // The last look before the rename: only ever replace the regular file that was there.
        var now = stat()
        if lstat(target, &now) == 0 {
            if now.st_mode & S_IFMT != S_IFREG { return fail(.unwritable(path, reason: "it is no longer a regular file")) }
            if let expected, expected != FileIdentity(now) { return fail(.unwritable(path, reason: changedSinceRead)) }
        }
        if creating {
            guard link(temporary, target) == 0 else {
                return fail(.unwritable(path, reason: errno == EEXIST ? alreadyExists : InputReader.describe(errno)))
            }
            unlink(temporary)
        } else if rename(temporary, target) != 0 {
            return fail(.unwritable(path, reason: InputReader.describe(errno)))
        }
        close(fd)
        syncFolder(place)
        return .success(FileIdentity(written))
    }

    /// Gives the new file the old one's owner, group, mode and extended attributes (a new file
    /// gets 0666 less the umask). Returns why that was impossible, if it was.
    private static func take(_ old: stat?, of target: String, to fd: Int32) -> String? {
        guard let old else {
            let mask = umask(0)
            umask(mask)
            return fchmod(fd, 0o666 & ~mask) == 0 ? nil : InputReader.describe(errno)
        }
        if old.st_uid != geteuid() || old.st_gid != getegid(), fchown(fd, old.st_uid, old.st_gid) != 0 {
            return "its owner and group could not be kept (\(InputReader.describe(errno)))"
        }
        // After the owner, because changing the owner clears the set-user-ID bit.
        if fchmod(fd, old.st_mode & 0o7777) != 0 { return InputReader.describe(errno) }
        return ExtendedAttributes.copy(from: target, to: fd)
    }

    /// A rename is durable only once its folder is flushed too.
    private static func syncFolder(_ place: String) {
        let fd = open(place.isEmpty ? "." : place, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
