import CSpawn
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end with standard input from /dev/null, its standard output and
/// error collected apart.
struct ChildProcess {
    /// The exit status (128 + the signal when one ended it), and what it wrote.
    var status: Int32
    var output: [UInt8]
    var errors: [UInt8]

    var outputText: String { String(decoding: output, as: UTF8.self) }
    var errorText: String { String(decoding: errors, as: UTF8.self) }

    /// Runs `program` (a path, or a name looked up on PATH) with `arguments`; nil when it
    /// cannot be started.
    static func run(_ program: String, _ arguments: [String]) -> ChildProcess? {
        guard let out = GraphvizRenderer.closeOnExecPipe() else { return nil }
        guard let err = GraphvizRenderer.closeOnExecPipe() else {
            close(out.read)
            close(out.write)
            return nil
        }
        let outPipe = [out.read, out.write]
        let errPipe = [err.read, err.write]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        routine_spawn_close_others(&actions)
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let started = posix_spawnp(&pid, program, &actions, nil, &argv, environ) == 0
        close(outPipe[1])
        close(errPipe[1])
        defer {
            close(outPipe[0])
            close(errPipe[0])
        }
        guard started else { return nil }
        var result = ChildProcess(status: 0, output: [], errors: [])
        // Both pipes at once, so that a child filling one while we wait on the other never stalls.
        var open = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0), pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            if poll(&open, nfds_t(open.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            var k = open.count - 1
            while k >= 0 {
                if open[k].revents != 0 {
                    let fd = open[k].fd
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        if fd == outPipe[0] { result.output += buffer[..<n] } else { result.errors += buffer[..<n] }
                    } else if n == 0 || errno != EINTR {
                        open.remove(at: k)
                    }
                }
                k -= 1
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        result.status = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return result
    }
}
