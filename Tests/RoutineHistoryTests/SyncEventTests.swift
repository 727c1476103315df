import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

/// Journal lines as untrusted input, and the order of events (docs/sync.md).
struct SyncEventTests {
    static let device = String(repeating: "ab", count: 16)
    static let id = String(repeating: "0f", count: 16)
    static let day = #"{"dayOff":"2026-11-24","routine":"Morning","reason":null,"recorded":"2026-11-24T06:00:00.000Z"}"#

    static func line(
        version: String = "1", device: String = device, at: String = "2026-11-24T06:00:00.000Z", type: String = "dayOff", payload: String = day
    ) -> String {
        #"{"v":\#(version),"id":"\#(id)","device":"\#(device)","seq":3,"at":"\#(at)","type":"\#(type)","\#(type == "device" ? "name" : "dayOff")":\#(payload)}"#
    }

    @Test func aLineAsRoutineWritesItIsReadBackWhole() throws {
        let event = try SyncEvent.parse(ArraySlice(Array(Self.line().utf8)))
        #expect(event.kind == .dayOff)
        #expect(event.seq == 3)
        #expect(event.line == Self.line())
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        (line(version: "2"), "format version 2 is newer"),
        (line(device: "AB"), "not an event as routine writes it"),
        (line(at: "2026-11-24T06:00Z"), "'at' is not a UTC time"),
        (line(type: "dayOn", payload: "{\"routine\":\"Morning\",\"date\":\"2026-02-30\"}"), "'date' '2026-02-30'"),
        (line(payload: day.replacingOccurrences(of: "\"reason\":null", with: "\"reason\": null")), "not in the form routine writes"),
        (line(type: "device", payload: "\"a\\u0000b\""), "'name'"),
        (line(type: "wipe"), "'type' 'wipe' is not an event"),
    ])
    func aBadLineIsRefusedWithItsReason(line: String, reason: String) {
        #expect(throws: ImportProblem.self) { try SyncEvent.parse(ArraySlice(Array(line.utf8))) }
        do {
            _ = try SyncEvent.parse(ArraySlice(Array(line.utf8)))
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    /// Within a device its sequence orders events, whatever its clock says; between devices
    /// the later time, then the greater id.
    @Test(arguments: [
        (("a", 1, "2026-11-24T08:00:00.000Z"), ("a", 2, "2026-11-24T06:00:00.000Z"), 2),
        (("a", 5, "2026-11-24T06:00:00.000Z"), ("b", 1, "2026-11-24T07:00:00.000Z"), 2),
        (("b", 1, "2026-11-24T06:00:00.000Z"), ("a", 9, "2026-11-24T06:00:00.000Z"), 1),
    ])
    func theWinnerOfTwoEvents(first: (String, Int64, String), second: (String, Int64, String), winner: Int) {
        let entries = [first, second].enumerated().map { k, e in
            SyncMerge.Entry(id: "\(k)", device: e.0, seq: e.1, at: e.2, type: "run")
        }
        #expect(SyncMerge.winner(entries)?.id == String(winner - 1))
        #expect(SyncMerge.winner(entries.reversed())?.id == String(winner - 1))
    }
}
