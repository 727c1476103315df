import RoutineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the reader found on the input: a message body, or a header it could not use (the
/// server answers that with an error and reads on).
public enum Frame: Sendable, Equatable {
    case message([UInt8])
    case badHeader(String)
}

/// Splits a byte stream into JSON-RPC messages: `Content-Length: N` headers (and any other
/// header, ignored), a blank line, then N bytes of body.
public struct FrameDecoder: Sendable {
    /// Larger bodies are skipped, not buffered: the largest routine is 256 MiB, and JSON
    /// escaping can double it.
    public static let maximumBody = 600 << 20

    private var buffer: [UInt8] = []
    private var start = 0
    private var skipping = 0

    public init() {}

    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if start > 0, start == buffer.count || start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil until more bytes arrive.
    public mutating func next() -> Frame? {
        if skipping > 0 {
            let n = min(skipping, buffer.count - start)
            start += n
            skipping -= n
            if skipping > 0 { return nil }
        }
        guard let end = headerEnd() else {
            if buffer.count - start > 1 << 16 {
                // Sixty-four kilobytes without a blank line is no header: drop it.
                start = buffer.count
                return .badHeader("a header of more than 64 KiB without its blank line")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<end], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingSpaces)
            }
        }
        let bodyStart = end + 4
        guard let length, length >= 0 else {
            start = bodyStart
            return .badHeader("a message without a valid Content-Length header")
        }
        if length > Self.maximumBody {
            start = bodyStart
            let n = min(length, buffer.count - start)
            start += n
            skipping = length - n
            return .badHeader("a message of \(length) bytes, more than the largest accepted")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        return .message(body)
    }

    private func headerEnd() -> Int? {
        var i = start
        while i + 3 < buffer.count {
            if buffer[i] == 0x0D, buffer[i + 1] == 0x0A, buffer[i + 2] == 0x0D, buffer[i + 3] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    /// A message body with its header, ready to write.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
