// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "routine",
    // No `platforms`: the package builds on Linux, the one platform it is built and tested on
    // (the sources import Glibc); a macOS version declared here would promise a build that fails.
    products: [
        .executable(name: "routine", targets: ["routine"]),
        .executable(name: "routine-studio", targets: ["routine-studio"]),
        .executable(name: "routine-gen", targets: ["routine-gen"]),
        .library(name: "RoutineKit", targets: ["RoutineKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // No traits: swift-configuration and the Foundation-only form coding are not used here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The C libraries are linked by the targets that use them (below), not by their module maps:
        // a release build takes them from their static archives (libsqlite3-dev, libyaml-dev).
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // zlib's inflate, for Loop Habit Tracker's CSV export, which is a zip archive.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CFileAttributes"),
        .systemLibrary(name: "CSpawn"),
        // The pairing address's QR code (libqrencode-dev); Debian ships no static archive of it.
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        .target(
            name: "RoutineKit", dependencies: ["CYAML", "CFileAttributes", "CSpawn"],
            // Exclusivity is checked at run time in debug builds, where every test runs; in the
            // release build the checks were 8% of `check x.yaml` (BENCHMARKS.md, "Sixth round").
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))] + directMetadata,
            linkerSettings: staticInRelease("yaml")),
        .target(name: "RoutineTerminal", swiftSettings: directMetadata),
        .target(name: "RoutineLanguageServer", dependencies: ["RoutineKit"], swiftSettings: directMetadata),
        .target(
            name: "RoutineHistory", dependencies: ["RoutineKit", "CSQLite", "CZlib"], swiftSettings: directMetadata,
            linkerSettings: staticInRelease("sqlite3") + staticInRelease("z")),
        .target(
            name: "RoutineStudio",
            dependencies: [
                "RoutineKit", "RoutineHistory", "CSpawn", "CQREncode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Page/ is embedded by the PageAssets plugin, which lists the folder at each build.
            exclude: ["Page"],
            linkerSettings: [.linkedLibrary("qrencode")],
            plugins: ["PageAssets"]
        ),
        .executableTarget(name: "page-assets"),
        .plugin(name: "PageAssets", capability: .buildTool(), dependencies: ["page-assets"]),
        .executableTarget(
            name: "routine",
            dependencies: [
                "RoutineKit",
                "RoutineHistory",
                "RoutineTerminal",
                "RoutineLanguageServer",
                "CSpawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: directMetadata
        ),
        // The studio's server, which `routine studio` starts: SwiftNIO and Hummingbird stay
        // out of the executable that every other command starts.
        .executableTarget(name: "routine-studio", dependencies: ["RoutineStudio", "RoutineHistory", "RoutineKit"]),
        .executableTarget(name: "routine-gen", dependencies: ["RoutineKit"]),
        .testTarget(name: "RoutineKitTests", dependencies: ["RoutineKit"], exclude: ["Fixtures"]),
        .testTarget(name: "RoutineHistoryTests", dependencies: ["RoutineHistory", "RoutineKit", "CSQLite"], exclude: ["Fixtures"]),
        .testTarget(name: "RoutineTerminalTests", dependencies: ["RoutineTerminal"]),
        .testTarget(name: "RoutineLanguageServerTests", dependencies: ["RoutineLanguageServer", "RoutineKit"]),
        // The suites that run the built binary declare it, so `swift test` builds it first.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "EndToEndTests", dependencies: ["RoutineKit", "TestSupport", "routine", "routine-studio"]),
        .testTarget(
            name: "RoutineStudioTests",
            dependencies: [
                "RoutineStudio", "RoutineKit", "RoutineHistory", "TestSupport", "routine", "routine-studio",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

/// Links C library `name` from its shared object in debug builds and from its static archive in
/// release builds: loading and binding a shared object at every start cost 0.4 ms of a
/// `routine today` of about 4 ms (BENCHMARKS.md, "Start-up and size").
func staticInRelease(_ name: String) -> [LinkerSetting] {
    [.linkedLibrary(name, .when(configuration: .debug)), .unsafeFlags(["-Xlinker", "-l:lib\(name).a"], .when(configuration: .release))]
}

/// In release builds, the metadata of a generic type this code names (a `[String: Int]`) comes
/// from an accessor given the conformances the compiler knows, not from its mangled name: the
/// runtime would look each conformance up by scanning all 4,000 records of the binary, about
/// 50 microseconds a lookup at every start (BENCHMARKS.md, "Start-up and size").
var directMetadata: [SwiftSetting] {
    [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))]
}
