import RoutineKit

extension HistoryJSON {
    /// Reads a run line member by member in the one order ``encode(_:)`` writes them, with no
    /// tree of values in between: a join reads eleven thousand of these. Nil for any other
    /// line and for a text with an escape, which the general reader takes instead; a run read
    /// here is still checked and written back like any other (``decodeCanonical(_:)``).
    struct CanonicalReader {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var index = 0

        private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> RunLine? {
            var r = CanonicalReader(bytes)
            return r.run()
        }

        private mutating func run() -> RunLine? {
            guard take("{\"date\":"), let date = string(), take(",\"routine\":"), let routine = string(), take(",\"result\":"),
                let result = string(), take(",\"reachedEnd\":"), let reachedEnd = bool(), take(",\"started\":"), let started = string(),
                take(",\"ended\":")
            else { return nil }
            var ended: String?
            if !take("null") {
                guard let text = string() else { return nil }
                ended = text
            }
            guard take(",\"utcOffset\":"), let utcOffset = string(), take(",\"path\":"), let path = string(), take(",\"sourceHash\":"),
                let sourceHash = string()
            else { return nil }
            var kind: String?
            guard optionalString(",\"kind\":", into: &kind) else { return nil }
            guard take(",\"steps\":["), let steps = list({ $0.step() }) else { return nil }
            var amendments: [AmendmentLine]?
            if take(",\"amendments\":[") {
                guard let items = list({ $0.amendment() }) else { return nil }
                amendments = items
            }
            guard take("}"), index == bytes.count else { return nil }
            return RunLine(
                date: date, routine: routine, result: result, started: started, utcOffset: utcOffset, path: path, sourceHash: sourceHash,
                ended: ended, kind: kind, reachedEnd: reachedEnd, steps: steps, amendments: amendments)
        }

        private mutating func step() -> StepLine? {
            guard take("{\"step\":"), let step = number(), take(",\"node\":"), let node = string(), take(",\"kind\":"), let kind = string(),
                take(",\"title\":"), let title = string(), take(",\"result\":"), let result = string()
            else { return nil }
            var line = StepLine(step: step, node: node, kind: kind, title: title, result: result, at: "")
            guard optionalNumber(",\"value\":", into: &line.value), optionalNumber(",\"target\":", into: &line.target),
                optionalString(",\"unit\":", into: &line.unit)
            else { return nil }
            if take(",\"option\":") {
                guard let option = string(), take(",\"index\":"), let index = number() else { return nil }
                (line.option, line.index) = (option, index)
            }
            guard take(",\"at\":"), let at = string(), take(",\"seconds\":") else { return nil }
            line.at = at
            if !take("null") {
                guard let seconds = number() else { return nil }
                line.seconds = seconds
            }
            guard optionalString(",\"reason\":", into: &line.reason) else { return nil }
            return take("}") ? line : nil
        }

        private mutating func amendment() -> AmendmentLine? {
            guard take("{\"step\":"), let step = number(), let whole = Int(exactly: step), take(",\"at\":"), let at = string() else {
                return nil
            }
            if take(",\"added\":true}") { return AmendmentLine(step: whole, at: at, added: true, before: nil) }
            guard take(",\"before\":{\"result\":"), let result = string() else { return nil }
            var before = BeforeLine(result: result)
            guard optionalNumber(",\"value\":", into: &before.value) else { return nil }
            if take(",\"option\":") {
                guard let option = string(), take(",\"index\":"), let index = number() else { return nil }
                (before.option, before.index) = (option, index)
            }
            guard optionalNumber(",\"seconds\":", into: &before.seconds) else { return nil }
            return take("}}") ? AmendmentLine(step: whole, at: at, added: nil, before: before) : nil
        }

        /// After `key`, when it comes next, a number into `value`; false when no number follows it.
        private mutating func optionalNumber(_ key: StaticString, into value: inout Double?) -> Bool {
            guard take(key) else { return true }
            value = number()
            return value != nil
        }

        /// After `key`, when it comes next, a text into `value`; false when no text follows it.
        private mutating func optionalString(_ key: StaticString, into value: inout String?) -> Bool {
            guard take(key) else { return true }
            value = string()
            return value != nil
        }

        /// The items of a list whose `[` is read, and its `]`.
        private mutating func list<T>(_ item: (inout CanonicalReader) -> T?) -> [T]? {
            var items: [T] = []
            if take("]") { return items }
            repeat {
                guard let next = item(&self) else { return nil }
                items.append(next)
            } while take(",")
            return take("]") ? items : nil
        }

        private mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for k in 0..<count where bytes[index + k] != literal.utf8Start[k] { return false }
            index += count
            return true
        }

        private mutating func bool() -> Bool? {
            if take("true") { return true }
            return take("false") ? false : nil
        }

        /// A text without escapes or control characters; any other is the general reader's.
        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            // Bytes that are not UTF-8 come out repaired, so the line fails the written-back check.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// A number in JSON's grammar: small whole numbers by hand, others by the C library.
        private mutating func number() -> Double? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            var whole: Int64 = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                whole = whole &* 10 &+ Int64(bytes[index] - 0x30)
                index += 1
            }
            let count = index - digits
            guard count > 0, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return nil }
            var plain = count <= 15
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                plain = false
                index += 1
                guard skipDigits() else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                plain = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return nil }
            }
            if plain { return Double(digits > start ? -whole : whole) }
            return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        private mutating func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index > start
        }
    }
}

extension HistoryJSON.RunLine {
    init(
        date: String, routine: String, result: String, started: String, utcOffset: String, path: String, sourceHash: String, ended: String?,
        kind: String?, reachedEnd: Bool, steps: [HistoryJSON.StepLine], amendments: [HistoryJSON.AmendmentLine]?
    ) {
        (self.date, self.routine, self.result, self.started, self.utcOffset) = (date, routine, result, started, utcOffset)
        (self.path, self.sourceHash, self.ended, self.kind, self.reachedEnd) = (path, sourceHash, ended, kind, reachedEnd)
        (self.steps, self.amendments) = (steps, amendments)
    }
}

extension HistoryJSON.StepLine {
    init(step: Double, node: String, kind: String, title: String, result: String, at: String) {
        (self.step, self.node, self.kind, self.title, self.result, self.at) = (step, node, kind, title, result, at)
    }
}

extension HistoryJSON.AmendmentLine {
    init(step: Int, at: String, added: Bool?, before: HistoryJSON.BeforeLine?) {
        (self.step, self.at, self.added, self.before) = (step, at, added, before)
    }
}

extension HistoryJSON.BeforeLine {
    init(result: String) { self.result = result }
}
