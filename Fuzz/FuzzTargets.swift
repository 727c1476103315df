// libFuzzer entry point for RoutineKit, compiled into the library's own module by
// scripts/fuzz.sh (so it reaches internal API without a second build of the package).
// ROUTINE_FUZZ_TARGET chooses the target; the checks themselves are `SelfCheck`, which the
// regression test replays over every saved input:
//   dsl        parse and validate .rt input, then SelfCheck.exercise
//   yaml       load and validate YAML input, then SelfCheck.exercise
//   roundtrip  SelfCheck.roundTrip on .rt input
//   uri        FileURI.path on the input as a URI: a path it gives is absolute, holds no NUL,
//              and comes back unchanged through FileURI.uri(of:)

#if canImport(Glibc)
import Glibc
#endif

private enum FuzzTarget {
    case dsl, yaml, roundTrip, uri

    static let chosen: FuzzTarget = {
        switch getenv("ROUTINE_FUZZ_TARGET").map({ String(cString: $0) }) {
        case "yaml": .yaml
        case "roundtrip": .roundTrip
        case "uri": .uri
        default: .dsl
        }
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = SourceFile(name: "fuzz", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    switch FuzzTarget.chosen {
    case .dsl: SelfCheck.exercise(RoutineLoader.load(file, format: .rt))
    case .yaml: SelfCheck.exercise(RoutineLoader.load(file, format: .yaml))
    case .roundTrip: SelfCheck.roundTrip(RoutineLoader.load(file, format: .rt))
    case .uri:
        if case .success(let path) = FileURI.path(String(decoding: file.bytes, as: UTF8.self)) {
            precondition(path.hasPrefix("/") && !path.utf8.contains(0), "a URI decoded to a path no file can have")
            precondition((try? FileURI.path(FileURI.uri(of: path)).get()) == path, "a path changed on its way through a URI")
        }
    }
    return 0
}
