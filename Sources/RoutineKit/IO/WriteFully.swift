#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to `fd`, retrying short and interrupted writes. Returns 0, or the
/// `errno` of the write that failed.
public func writeFully(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += n
    }
    return 0
}

public func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBufferPointer { writeFully(fd, $0) }
}
