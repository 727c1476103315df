#if canImport(Glibc)
import Glibc
import CFileAttributes
#endif

/// Copies a file's extended attributes (user metadata, ACLs, security labels) to a new file
/// that replaces it, so that rewriting a file does not silently strip them.
enum ExtendedAttributes {
    /// Returns why an attribute could not be copied, or nil when all were.
    static func copy(from path: String, to fd: Int32) -> String? {
        #if canImport(Glibc)
        var names = [CChar](repeating: 0, count: 4096)
        var length = listxattr(path, &names, names.count)
        if length < 0, errno == ERANGE {
            let needed = listxattr(path, nil, 0)
            guard needed >= 0 else { return nil }
            names = [CChar](repeating: 0, count: needed + 1)
            length = listxattr(path, &names, names.count)
        }
        // A file system without extended attributes has none to keep.
        guard length > 0 else { return nil }
        var start = 0
        while start < length {
            var end = start
            while end < length, names[end] != 0 { end += 1 }
            let name = String(decoding: names[start..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let failure = copyOne(names, at: start, named: name, from: path, to: fd) { return failure }
            start = end + 1
        }
        #endif
        return nil
    }

    #if canImport(Glibc)
    private static func copyOne(_ names: [CChar], at start: Int, named name: String, from path: String, to fd: Int32) -> String? {
        names.withUnsafeBufferPointer { buffer -> String? in
            let key = buffer.baseAddress! + start
            let size = getxattr(path, key, nil, 0)
            guard size >= 0 else { return "its extended attribute '\(name)' could not be read" }
            var value = [UInt8](repeating: 0, count: max(size, 1))
            let read = getxattr(path, key, &value, value.count)
            guard read >= 0 else { return "its extended attribute '\(name)' could not be read" }
            if fsetxattr(fd, key, value, read, 0) != 0 {
                return "its extended attribute '\(name)' could not be kept (\(InputReader.describe(errno)))"
            }
            return nil
        }
    }
    #endif
}
