#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `path` made absolute against the working folder (symbolic links kept as given): a routine's
/// path as the history records it.
public func absolutePath(_ path: String) -> String {
    if path == "-" || path.hasPrefix("/") { return path }
    guard let cwd = getcwd(nil, 0) else { return path }
    defer { free(cwd) }
    var base = String(cString: cwd)
    if !base.hasSuffix("/") { base += "/" }
    return base + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
}
