// libFuzzer entry point for RoutineKit, compiled into the library's own module by
// scripts/fuzz.sh (so it reaches internal API without a second build of the package).
// ROUTINE_FUZZ_TARGET chooses the target; the checks themselves are `SelfCheck`, which the
// regression test replays over every saved input:
//   dsl        parse and validate .rt input, then SelfCheck.exercise
//   yaml       load and validate YAML input, then SelfCheck.exercise; and read it through
//              the parse thread's pipe, event by event as a direct parse (SelfCheck.pipe)
//   roundtrip  SelfCheck.roundTrip on .rt input
//   lines      LineReader over the input as a file: the lines are the input split at LF, one
//              CR before each LF dropped, whatever the buffer boundaries; line numbers agree
//   uri        FileURI.path on the input as a URI: a path it gives is absolute, holds no NUL,
//              and comes back unchanged through FileURI.uri(of:)

#if canImport(Glibc)
import Glibc
#endif

private enum FuzzTarget {
    case dsl, yaml, roundTrip, uri, lines

    static let chosen: FuzzTarget = {
        switch getenv("ROUTINE_FUZZ_TARGET").map({ String(cString: $0) }) {
        case "yaml": .yaml
        case "roundtrip": .roundTrip
        case "uri": .uri
        case "lines": .lines
        default: .dsl
        }
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = SourceFile(name: "fuzz", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    switch FuzzTarget.chosen {
    case .dsl: SelfCheck.exercise(RoutineLoader.load(file, format: .rt))
    case .yaml:
        SelfCheck.exercise(RoutineLoader.load(file, format: .yaml))
        SelfCheck.pipe(file.bytes)
    case .roundTrip: SelfCheck.roundTrip(RoutineLoader.load(file, format: .rt))
    case .lines: checkLines(file.bytes)
    case .uri:
        if case .success(let path) = FileURI.path(String(decoding: file.bytes, as: UTF8.self)) {
            precondition(path.utf8.first == UInt8(ascii: "/") && !path.utf8.contains(0), "a URI decoded to a path no file can have")
            precondition((try? FileURI.path(FileURI.uri(of: path)).get()) == path, "a path changed on its way through a URI")
        }
    }
    return 0
}

/// Reads `bytes` back through a file with `LineReader`, both ways, and compares with a plain split.
private func checkLines(_ bytes: [UInt8]) {
    var template = Array("/tmp/routine-fuzz-lines-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0)
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    var expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0.last == 0x0D ? $0.dropLast() : $0) }
    if bytes.last == 0x0A || bytes.isEmpty { expected.removeLast() }
    guard case .success(let reader) = LineReader.open(path) else { preconditionFailure("cannot open") }
    var lines: [[UInt8]] = []
    while case .success(let line?) = reader.next() { lines.append(line) }
    precondition(lines == expected && reader.lineNumber == expected.count, "lines split wrongly")
    guard case .success(let again) = LineReader.open(path) else { preconditionFailure("cannot open") }
    let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
    let wanted = expected.enumerated().filter { !$0.element.allSatisfy(blank.contains) }
    var k = 0
    while case .success(let line?) = again.nextNonBlank() {
        precondition(k < wanted.count && again.lineNumber == wanted[k].offset + 1, "a line numbered wrongly")
        precondition(Array(wanted[k].element.drop { blank.contains($0) }) == line, "a line changed")
        k += 1
    }
    precondition(k == wanted.count, "a line lost")
}
