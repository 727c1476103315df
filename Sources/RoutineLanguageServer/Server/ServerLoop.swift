import Dispatch
import RoutineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Connects a ``LanguageServer`` to standard input and output: a thread reads and parses
/// messages while the server handles earlier ones, so a burst of edits is seen at once and
/// only the newest version of a document is checked.
public enum ServerLoop {
    /// Serves until `exit` or the end of the input; returns the exit status.
    public static func run(documentation: String?) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let output = Locked(true)
        let send: LanguageServer.Send = { message in
            let bytes = FrameDecoder.frame(message.serialized)
            output.withLock { open in
                if open, writeFully(1, bytes) != 0 { open = false }
            }
        }
        let server = LanguageServer(documentation: documentation, send: send) { work in
            if !detachThread(work) { work() }
        }
        let inbox = Inbox()
        guard detachThread({ read(into: inbox) }) else {
            server.log("no thread to read the input on")
            return 1
        }
        while true {
            switch inbox.take() {
            case .closed:
                // The client went away: a server must not outlive its editor.
                return server.exitCode ?? (server.shuttingDown ? 0 : 1)
            case .badHeader(let reason):
                server.log("skipped input: \(reason)")
                send(Outgoing.error(nil, .parseError("unreadable message: \(reason)")))
            case .malformed(let failure):
                server.reject(failure)
            case .message(let message):
                if message["method"]?.string == "textDocument/didChange", let uri = message["params"]?["textDocument"]?["uri"]?.string,
                    server.initialized, !server.shuttingDown, inbox.hasChange(to: uri)
                {
                    do { try server.documentChanged("textDocument/didChange", message["params"]!, publish: false) } catch {
                        server.log("didChange: \(error.message)")
                    }
                } else {
                    server.handle(message)
                }
                if let code = server.exitCode { return code }
            }
        }
    }

    private static func read(into inbox: Inbox) {
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                inbox.put(.closed)
                return
            }
            buffer.withUnsafeBufferPointer { decoder.append(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            while let frame = decoder.next() {
                switch frame {
                case .badHeader(let reason): inbox.put(.badHeader(reason))
                case .message(let body):
                    do { inbox.put(.message(try JSONParser.parse(body))) } catch { inbox.put(.malformed(error)) }
                }
            }
        }
    }
}

/// Messages read but not yet handled.
final class Inbox: @unchecked Sendable {
    enum Item: Sendable {
        case message(JSON)
        case malformed(JSONParser.Failure)
        case badHeader(String)
        case closed
    }

    private let items = Locked([Item]())
    private let available = DispatchSemaphore(value: 0)

    func put(_ item: Item) {
        items.withLock { $0.append(item) }
        available.signal()
    }

    func take() -> Item {
        available.wait()
        return items.withLock { $0.removeFirst() }
    }

    /// Whether a change to `uri` is waiting: the one in hand is then already out of date.
    func hasChange(to uri: String) -> Bool {
        items.withLock { items in
            items.contains { item in
                guard case .message(let m) = item else { return false }
                return m["method"]?.string == "textDocument/didChange" && m["params"]?["textDocument"]?["uri"]?.string == uri
            }
        }
    }
}
