import FoundationEssentials
import RoutineKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One line of a sync journal: a change one device made to its history (docs/sync.md).
///
/// The line has one fixed form, `{"v":1,"id":…,"device":…,"seq":…,"at":…,"type":…,"KEY":PAYLOAD}`;
/// the payload is a run or a day off exactly as `history export` writes it, or the key of
/// one. A line is accepted only when writing back what was read gives the same bytes.
struct SyncEvent: Hashable, Sendable {
    /// The journal format this binary writes; a line of a newer one is skipped, said once.
    static let version = 1

    /// What the event records. A new kind of record is one more case, with its payload.
    enum Kind: String, Sendable, CaseIterable {
        /// The device's name, written when it joins.
        case device
        /// A run (or log) as it now is, steps and amendments included.
        case run
        /// A run deleted (a tombstone) and a deleted run put back.
        case delete, restore
        /// A day off recorded, and undone.
        case dayOff, dayOn

        /// The name of the payload's member.
        var member: String {
            switch self {
            case .device: "name"
            case .run, .delete, .restore: "run"
            case .dayOff, .dayOn: "dayOff"
            }
        }

        /// Which register of a key the event sets: what a key holds, or whether it is there.
        var family: String {
            switch self {
            case .device: "device"
            case .run, .delete, .restore: "run"
            case .dayOff, .dayOn: "day"
            }
        }
    }

    var id: String
    var device: String
    var seq: Int64
    var at: Timestamp
    var kind: Kind
    /// The payload's JSON text, in the form `history export` writes.
    var payload: String

    /// The key the event is about: a run by routine, date and start; a day off by routine and
    /// date; a device by itself.
    var key: String

    /// The run of a `run` event as ``parse(_:)`` decoded it, so that applying the event needs
    /// no second decoding of its payload.
    var run: StoredRun? = nil

    /// The whole line, without its newline.
    var line: String {
        "{\"v\":\(Self.version),\"id\":\"\(id)\",\"device\":\"\(device)\",\"seq\":\(seq),\"at\":\"\(at)\",\"type\":\"\(kind.rawValue)\",\"\(kind.member)\":\(payload)}"
    }

    static func runKey(routine: String, date: String, started: String) -> String {
        JSONValue.array([.string(routine), .string(date), .string(started)]).text
    }

    static func dayKey(routine: String, date: String) -> String {
        JSONValue.array([.string(routine), .string(date)]).text
    }

    /// The routine, date (and start) a key names; empty when it is no key.
    static func keyParts(_ key: String) -> [String] {
        guard case .array(let items)? = try? JSONParser.parse(Array(key.utf8)) else { return [] }
        let parts = items.compactMap(\.string)
        return parts.count == items.count ? parts : []
    }

    /// A run's tombstone or restore payload: the key of the run, nothing of its content.
    static func runReference(routine: String, date: String, started: String) -> String {
        JSONValue.object([("routine", .string(routine)), ("date", .string(date)), ("started", .string(started))]).text
    }

    static func dayReference(routine: String, date: String) -> String {
        JSONValue.object([("routine", .string(routine)), ("date", .string(date))]).text
    }

    /// 32 lowercase hexadecimal digits from the system's random source: device and event ids.
    ///
    /// The sync simulation sets `ROUTINE_TEST_IDS` to a text of its own for each command it
    /// runs, so that a failing seed replays with the same ids: which of two lines sorts first
    /// depends on them.
    static func newID() -> String {
        var words: [UInt64]
        if let seeded = TestIDs.shared?.withLock({ $0.next2() }) {
            words = [seeded.0, seeded.1]
        } else {
            var generator = SystemRandomNumberGenerator()
            words = [generator.next() as UInt64, generator.next() as UInt64]
        }
        return words.map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    static func isID(_ text: some Collection<UInt8>) -> Bool {
        text.count == 32 && text.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}

extension SyncEvent {
    /// Reads one line (without its newline) as ``line`` writes it; the error says what is
    /// wrong. Payloads go through the validators of `history import`.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(ImportProblem) -> SyncEvent {
        var cursor = Cursor(bytes: bytes)
        guard cursor.take("{\"v\":") else { throw notEvent(bytes) }
        guard let version = cursor.number() else { throw notEvent(bytes) }
        if version > Int64(Self.version) {
            throw ImportProblem("format version \(version) is newer than this routine reads (\(Self.version)); update routine")
        }
        guard version == Int64(Self.version), cursor.take(",\"id\":\""), let id = cursor.text(), isID(id.utf8),
            cursor.take(",\"device\":\""), let device = cursor.text(), isID(device.utf8),
            cursor.take(",\"seq\":"), let seq = cursor.number(), seq >= 1,
            cursor.take(",\"at\":\""), let atText = cursor.text(),
            cursor.take(",\"type\":\""), let type = cursor.text()
        else { throw notEvent(bytes) }
        guard let at = Timestamp(exactly: atText) else {
            throw ImportProblem("'at' is not a UTC time such as 2026-11-23T06:12:03.120Z")
        }
        guard let kind = Kind(rawValue: type) else { throw ImportProblem("'type' '\(type)' is not an event this routine knows") }
        guard cursor.take(",\"\(kind.member)\":"), bytes.last == UInt8(ascii: "}") else { throw notEvent(bytes) }
        let payload = bytes[cursor.index..<(bytes.endIndex - 1)]
        let (text, key, run) = try canonical(kind, payload)
        let event = SyncEvent(id: id, device: device, seq: seq, at: at, kind: kind, payload: text, key: key, run: run)
        guard HistoryJSON.sameBytes(event.line, bytes) else { throw ImportProblem("not in the form routine writes its events") }
        return event
    }

    /// The payload as routine writes it, checked by the import's validators, its key, and the
    /// run it holds.
    private static func canonical(_ kind: Kind, _ payload: ArraySlice<UInt8>) throws(ImportProblem) -> (String, String, StoredRun?) {
        switch kind {
        case .device:
            guard case .string(let name)? = try? JSONParser.parse(Array(payload)) else { throw ImportProblem("'name' is not a string") }
            if let problem = RecordedValues.textProblem(name) { throw ImportProblem("'name' \(problem)") }
            return (JSONValue.string(name).text, "", nil)
        case .run:
            let (run, isCanonical) = try HistoryJSON.decodeTelling(payload)
            // A payload read as `encode` writes it is its own text; any other is written anew.
            let text = isCanonical ? String(decoding: payload, as: UTF8.self) : HistoryJSON.encode(run).text
            return (text, runKey(routine: run.routine, date: run.date, started: run.startedAt.description), run)
        case .delete, .restore:
            guard let reference = Reference(payload), let started = reference.started else {
                throw ImportProblem("'run' needs 'routine', 'date' and 'started'")
            }
            try check(reference)
            guard Timestamp(exactly: started) != nil else { throw ImportProblem("'started' is not a UTC time") }
            return (
                runReference(routine: reference.routine, date: reference.date, started: started),
                runKey(routine: reference.routine, date: reference.date, started: started), nil
            )
        case .dayOff:
            let day = try HistoryJSON.decodeDayOff(payload)
            return (HistoryJSON.encode(day).text, dayKey(routine: day.routine, date: day.date.description), nil)
        case .dayOn:
            guard let reference = Reference(payload), reference.started == nil else {
                throw ImportProblem("'dayOff' needs 'routine' and 'date'")
            }
            try check(reference)
            return (dayReference(routine: reference.routine, date: reference.date), dayKey(routine: reference.routine, date: reference.date), nil)
        }
    }

    private static func check(_ reference: Reference) throws(ImportProblem) {
        if case .failure(let problem) = CalendarDate.checked(reference.date) { throw ImportProblem("'date' '\(reference.date)' \(problem.reason)") }
        if let problem = RecordedValues.textProblem(reference.routine) { throw ImportProblem("'routine' \(problem)") }
    }

    private static func notEvent(_ bytes: ArraySlice<UInt8>) -> ImportProblem {
        // An object or an array, as a JSON document a line of a journal could be.
        switch try? JSONParser.parse(Array(bytes)) {
        case .object?, .array?: ImportProblem("not an event as routine writes it")
        default: ImportProblem("not JSON")
        }
    }

    /// A run's or a day's reference: `routine` and `date`, and a run's `started` (absent or null
    /// for a day).
    private struct Reference {
        var routine, date: String
        var started: String?

        init?(_ payload: ArraySlice<UInt8>) {
            guard case .object(let members)? = try? JSONParser.parse(Array(payload)), let routine = members["routine"]?.string,
                let date = members["date"]?.string, case .some(let started) = optional(members["started"], \.string)
            else { return nil }
            (self.routine, self.date, self.started) = (routine, date, started)
        }
    }

    /// Reads the fixed envelope byte by byte: its members come in one order, with no spaces.
    private struct Cursor {
        var bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        mutating func take(_ literal: String) -> Bool {
            let utf8 = literal.utf8
            guard bytes.endIndex - index >= utf8.count, bytes[index..<(index + utf8.count)].elementsEqual(utf8) else { return false }
            index += utf8.count
            return true
        }

        /// Up to the closing quote: ids, times and type words hold no escapes.
        mutating func text() -> String? {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let found = bytes[index..<end]
            guard found.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return nil }
            index = end + 1
            return String(decoding: found, as: UTF8.self)
        }

        mutating func number() -> Int64? {
            var value: Int64 = 0
            let start = index
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < 18 {
                value = value * 10 + Int64(bytes[index] - 0x30)
                index += 1
            }
            return index > start ? value : nil
        }
    }
}

/// The ids of one process under `ROUTINE_TEST_IDS`: SplitMix64 from a hash of that text.
struct TestIDs {
    var state: UInt64

    static let shared: Mutex<TestIDs>? = getenv("ROUTINE_TEST_IDS").map { text in
        // FNV-1a of the text: the same text gives the same ids in every process.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in String(cString: text).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Mutex(TestIDs(state: hash))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next2() -> (UInt64, UInt64) { (next(), next()) }
}
