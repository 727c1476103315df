import Foundation
import Testing

@testable import RoutineKit

/// Every input the fuzzers found (and a few written by hand) runs through the fuzz targets'
/// own checks. A crash found by scripts/fuzz.sh is saved here as a new file.
struct FuzzRegressionTests {
    static let folder = testsDirectory.appendingPathComponent("Fixtures/fuzz")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func thereAreInputs() {
        #expect(Self.inputs.count >= 5)
    }

    @Test(arguments: inputs)
    func survives(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let file = SourceFile(name: name, bytes: bytes)
        for format in SourceFormat.allCases {
            let loaded = RoutineLoader.load(file, format: format)
            SelfCheck.exercise(loaded)
            SelfCheck.roundTrip(loaded)
        }
        SelfCheck.pipe(bytes)
    }
}
