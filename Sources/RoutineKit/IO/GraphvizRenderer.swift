import CSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs Graphviz's `dot` to render DOT into an image file. The DOT goes to `dot` on a pipe and
/// the image comes back on its standard output, which is the file writer's temporary file:
/// no temporary file of its own, no file name `dot` could read as an option, and the old image
/// stays whole unless `dot` succeeds and writes something.
public enum GraphvizRenderer {
    /// Renders `dot` as `kind` (svg, png, pdf) into `output`, written for `purpose`; `missing` tells whether the
    /// failure is that `dot` is not installed.
    public static func render(
        _ dot: UnsafeBufferPointer<UInt8>, as kind: String, to output: String, purpose: AtomicFile.Purpose = .output
    ) -> (diagnostic: Diagnostic?, missing: Bool) {
        var missing = false
        let written = AtomicFile.write(to: output, purpose: purpose) { fd in
            kind == "png" ? renderPNG(dot, into: fd, for: output, missing: &missing) : run(dot, as: kind, into: fd, for: output, missing: &missing)
        }
        guard case .failure(let diagnostic) = written else { return (nil, false) }
        return (diagnostic, missing)
    }

    /// The most pixels a PNG is given. Writing a PNG costs about 0.1 µs a pixel (zlib and
    /// libpng's filters, not the drawing), so a picture of a large routine at Graphviz's
    /// 96 dpi (a 200-node routine of long titles: 150 million pixels) took seconds to minutes;
    /// at 16 million a 200-node routine of many answers still took 2 s (BENCHMARKS.md).
    public static let pngPixelLimit = 10_000_000
    /// cairo's largest side; Graphviz shrinks a larger picture to fit it.
    static let pngSideLimit = 32_767.0
    /// Graphviz's resolution of a PNG.
    static let pngDPI = 96.0

    /// A PNG as `dot -Tpng` draws it when it fits ``pngPixelLimit``; otherwise drawn from the
    /// same layout at the resolution that fits it. The layout is made once, as DOT with its
    /// positions, and a larger picture is drawn from it by `neato -n2`, which places nothing again.
    static func renderPNG(_ dot: UnsafeBufferPointer<UInt8>, into fd: Int32, for output: String, missing: inout Bool) -> Diagnostic? {
        let layout: [UInt8]
        switch capture(dot, arguments: ["-Tdot"], for: output, missing: &missing) {
        case .success(let bytes): layout = bytes
        case .failure(let diagnostic): return diagnostic
        }
        guard let box = boundingBox(layout), let dpi = pngResolution(width: box.width, height: box.height) else {
            // Within the limit, the picture is the one `dot -Tpng` has always drawn; laying a
            // small graph out twice costs milliseconds.
            return run(dot, as: "png", into: fd, for: output, missing: &missing)
        }
        let frame = pngFrame(width: box.width, height: box.height, dpi: dpi)
        return layout.withUnsafeBufferPointer {
            run(
                $0, arguments: ["-Kneato", "-n2", "-Gdpi=\(dpi)", "-Gsize=\(frame.width),\(frame.height)", "-Tpng"], into: fd, for: output,
                missing: &missing)
        }
    }

    /// The most a picture drawn at `dpi` from a layout of `width` by `height` points may
    /// measure, in inches, as Graphviz's `size`: ``pngPixelLimit`` pixels in the layout's
    /// proportions. `neato -n2` places the answers' `xlabel`s anew, which can make its picture
    /// larger than the layout's box (up to a sixth, measured); `size` scales such a picture down
    /// to fit, so no PNG is larger than the limit, and one that fits is drawn as it is.
    public static func pngFrame(width: Double, height: Double, dpi: Double) -> (width: Double, height: Double) {
        let w = (width + 8) / 72
        let h = (height + 8) / 72
        // Under the limit by a little: Graphviz rounds each side up to a whole pixel.
        let scale = (Double(pngPixelLimit) / (w * h)).squareRoot() / dpi * 0.995
        return ((w * scale * 1000).rounded(.down) / 1000, (h * scale * 1000).rounded(.down) / 1000)
    }

    /// The resolution that keeps a picture of `width` by `height` points (a layout's bounding
    /// box) within ``pngPixelLimit`` and ``pngSideLimit``; nil when 96 dpi does.
    public static func pngResolution(width: Double, height: Double) -> Double? {
        // Graphviz pads the picture by 4 points on every side.
        let w = (width + 8) / 72
        let h = (height + 8) / 72
        let fits = w * h * pngDPI * pngDPI <= Double(pngPixelLimit) && max(w, h) * pngDPI <= pngSideLimit
        guard !fits, w > 0, h > 0 else { return nil }
        // A little under the limit: `neato -n2` recomputes the box, which can come out a few
        // points larger, and Graphviz rounds the pixels up.
        let dpi = min((Double(pngPixelLimit) / (w * h)).squareRoot(), pngSideLimit / max(w, h)) * 0.98
        return max((dpi * 100).rounded(.down) / 100, 0.01)
    }

    /// The graph's bounding box in `dot -Tdot`'s output: the first `bb`, which is the root
    /// graph's (its attributes are written before any subgraph's).
    static func boundingBox(_ layout: [UInt8]) -> (width: Double, height: Double)? {
        let key = Array("bb=\"".utf8)
        guard layout.count > key.count, let at = (0...layout.count - key.count).first(where: { layout[$0..<$0 + key.count].elementsEqual(key) })
        else { return nil }
        let start = at + key.count
        guard let end = layout[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let numbers = String(decoding: layout[start..<end], as: UTF8.self).split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return (numbers[2] - numbers[0], numbers[3] - numbers[1])
    }

    /// Runs `dot -T<kind>` and returns what it printed: for layouts read back by a program
    /// (`json0`). The output goes to an unnamed temporary file, which cannot fill up and stall
    /// `dot` the way a pipe read only after it exits could.
    public static func output(_ dot: [UInt8], as kind: String) -> Result<[UInt8], Diagnostic> {
        var missing = false
        return dot.withUnsafeBufferPointer { capture($0, arguments: ["-T\(kind)"], for: "Graphviz's layout", missing: &missing) }
    }

    /// Runs `dot` with `arguments` and returns what it printed.
    static func capture(
        _ dot: UnsafeBufferPointer<UInt8>, arguments: [String], for output: String, missing: inout Bool
    ) -> Result<[UInt8], Diagnostic> {
        guard let file = tmpfile() else { return .failure(.unwritable("a temporary file", reason: InputReader.describe(errno))) }
        defer { fclose(file) }
        let fd = fileno(file)
        if let failure = run(dot, arguments: arguments, into: fd, for: output, missing: &missing) {
            return .failure(failure)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        lseek(fd, 0, SEEK_SET)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
    }

    /// Starts `dot -T<kind>` reading `input` and writing `output` (both left open here); nil
    /// when it cannot be started, which is that `dot` is not installed.
    public static func spawn(as kind: String, input: Int32, output: Int32) -> pid_t? {
        spawn(arguments: ["-T\(kind)"], input: input, output: output)
    }

    static func spawn(arguments: [String], input: Int32, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        routine_spawn_close_others(&actions)
        var argv: [UnsafeMutablePointer<CChar>?] = (["dot"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawnp(&pid, "dot", &actions, nil, &argv, environ) == 0 ? pid : nil
    }

    /// A pipe whose ends close on exec: a writing end left open in a child would keep `dot`
    /// from ever seeing the end of its input. Nil with `errno` set when there is none.
    public static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard routine_pipe_cloexec(&ends) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    /// Why `dot` failed, from its wait status; nil when it exited 0.
    public static func failure(status: Int32) -> String? {
        guard status != 0 else { return nil }
        let how = status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
        return "Graphviz's dot \(how)"
    }

    static func run(_ dot: UnsafeBufferPointer<UInt8>, as kind: String, into fd: Int32, for output: String, missing: inout Bool) -> Diagnostic? {
        run(dot, arguments: ["-T\(kind)"], into: fd, for: output, missing: &missing)
    }

    static func run(
        _ dot: UnsafeBufferPointer<UInt8>, arguments: [String], into fd: Int32, for output: String, missing: inout Bool
    ) -> Diagnostic? {
        guard let ends = closeOnExecPipe() else { return .unwritable(output, reason: InputReader.describe(errno)) }
        let spawned = spawn(arguments: arguments, input: ends.read, output: fd)
        close(ends.read)
        guard let pid = spawned else {
            close(ends.write)
            missing = true
            return .missingProgram("dot", for: output)
        }
        // dot reads all of its input before it writes, so writing first cannot deadlock; if it
        // stops reading early, the write fails with EPIPE and its exit status tells why.
        _ = writeFully(ends.write, dot)
        close(ends.write)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // dot has already explained a failure of its own on standard error.
        if let failure = failure(status: status) { return .unwritable(output, reason: "\(failure); the file was left as it was") }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
            return .unwritable(output, reason: "Graphviz's dot wrote nothing; the file was left as it was")
        }
        return nil
    }
}
