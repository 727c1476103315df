import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking socket work on a thread of its own: the tests' blocking reads must never hold
/// the threads the server's own tasks run on.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// A bare HTTP/1.1 client over a socket, so that tests choose every header themselves
/// (Host, Origin, Cookie), as a hostile page or a DNS-rebinding attack would.
struct RawHTTP {
    struct Answer: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: String

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        func headers(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
    }

    let port: Int

    static func connect(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        // Generous: the studio answers on the same few threads as every test of the process,
        // and a suite's wait for git or Syncthing may hold some of them for seconds.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// The request's text: `headers` as given, nothing added but Content-Length and Connection.
    static func requestText(_ method: String, _ path: String, headers: [(String, String)], body: String?) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        return text + "Connection: close\r\n\r\n" + (body ?? "")
    }

    func request(_ method: String, _ path: String, headers: [(String, String)], body: String? = nil) async -> Answer {
        let port = port
        return await offThePool { RawHTTP(port: port).blockingRequest(method, path, headers: headers, body: body) }
    }

    func blockingRequest(_ method: String, _ path: String, headers: [(String, String)], body: String?) -> Answer {
        let fd = Self.connect(port)
        defer { close(fd) }
        Self.send(fd, Self.requestText(method, path, headers: headers, body: body))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return Self.parse(data)
    }

    static func parse(_ data: [UInt8]) -> Answer {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: 0, headers: [], body: text) }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = String(text[split.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1 == "chunked" }) { body = dechunk(body) }
        return Answer(status: status, headers: headers, body: body)
    }

    static func dechunk(_ text: String) -> String {
        var rest = Substring(text)
        var out = ""
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
            let start = line.upperBound
            let bytes = Array(rest[start...].utf8)
            out += String(decoding: bytes.prefix(size), as: UTF8.self)
            rest = Substring(String(decoding: bytes.dropFirst(size + 2), as: UTF8.self))
        }
        return out
    }
}

/// The live channel opened by hand: the answer's status, then one `data:` line at a time.
final class RawEventStream: Sendable {
    let fd: Int32
    let status: Int
    let contentType: String?

    static func open(port: Int, headers: [(String, String)]) async -> RawEventStream {
        await offThePool { RawEventStream(port: port, headers: headers) }
    }

    private init(port: Int, headers: [(String, String)]) {
        fd = RawHTTP.connect(port)
        var text = "GET /api/live HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        RawHTTP.send(fd, text + "\r\n")
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            head.append(byte)
            if head.suffix(4) == [13, 10, 13, 10] { break }
        }
        let answer = RawHTTP.parse(head)
        status = answer.status
        contentType = answer.header("Content-Type")
    }

    deinit { close(fd) }

    func nextData() async -> String? { await offThePool { self.blockingNextData() } }

    /// The payload of the next `data:` line (chunk sizes and other lines are skipped).
    func blockingNextData() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            if byte == 10 {
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if text.hasPrefix("data: ") { return String(text.dropFirst(6)) }
                line = []
            } else {
                line.append(byte)
            }
        }
        return nil
    }
}
