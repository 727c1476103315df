import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// A moment, as the history stores it: UTC text with milliseconds (`2026-11-23T06:12:03.120Z`),
/// which sorts as it reads and survives export and import exactly.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01 UTC.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// The local offset from UTC at this moment, in seconds (east positive).
    public var localOffset: Int {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Int(parts.tm_gmtoff)
    }

    public var description: String {
        // Written digit by digit into one buffer: a join of ten years writes a million of these.
        let seconds = floorDivision(milliseconds, 1000)
        let days = floorDivision(seconds, 86_400)
        let date = CalendarDate(dayNumber: Int(days))
        guard (0...9999).contains(date.year) else { return wideDescription }
        let inDay = Int(seconds - days * 86_400)
        let millis = Int(milliseconds - seconds * 1000)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, at start: Int, width: Int, then separator: Character) {
                var value = value
                for k in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[k] = UInt8(0x30 + value % 10)
                    value /= 10
                }
                buffer[start + width] = separator.asciiValue ?? 0
            }
            put(date.year, at: 0, width: 4, then: "-")
            put(date.month, at: 5, width: 2, then: "-")
            put(date.day, at: 8, width: 2, then: "T")
            put(inDay / 3600, at: 11, width: 2, then: ":")
            put(inDay / 60 % 60, at: 14, width: 2, then: ":")
            put(inDay % 60, at: 17, width: 2, then: ".")
            put(millis, at: 20, width: 3, then: "Z")
            return 24
        }
    }

    /// Years outside 0 to 9999, which no history holds, as the C library writes them.
    private var wideDescription: String {
        let (parts, millis) = fields(offset: 0)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
    }

    /// `HH:MM` in the time zone `offset` seconds east of UTC.
    public func clockTime(offset: Int) -> String {
        let minutes = minuteOfDay(offset: offset)
        return pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    /// Minutes since midnight, 0 to 1439, in the time zone `offset` seconds east of UTC.
    public func minuteOfDay(offset: Int) -> Int {
        let seconds = floorDivision(milliseconds, 1000) + Int64(offset)
        return Int((seconds % 86_400 + 86_400) % 86_400) / 60
    }

    /// Parses the form ``description`` writes (the milliseconds may be left out).
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses exactly the form ``description`` writes, milliseconds included and no leap
    /// second: what an export or a journal holds is checked to be written so without writing
    /// it again.
    init?(exactly text: String) {
        var text = text
        guard
            let parsed = text.withUTF8({ bytes -> Timestamp? in
                guard bytes.count == 24, bytes[17] < UInt8(ascii: "6") else { return nil }
                return Timestamp(utf8: bytes)
            })
        else { return nil }
        self = parsed
    }

    /// Parses the form ``description`` writes from its UTF-8 bytes, in place: a history
    /// reads two per run. Days that do not exist (`2026-02-30`) are refused.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 20 || bytes.count == 24, bytes[bytes.count - 1] == UInt8(ascii: "Z") else { return nil }
        func number(_ at: Int, _ count: Int) -> Int? {
            var n = 0
            for k in at..<at + count {
                let digit = Int(bytes[k]) &- 0x30
                guard digit >= 0, digit <= 9 else { return nil }
                n = n * 10 + digit
            }
            return n
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month),
            day >= 1, day <= CalendarDate.daysIn(month: month, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let m = number(20, 3) else { return nil }
            millis = m
        }
        let days = CalendarDate(year: year, month: month, day: day).dayNumber
        milliseconds = Int64(((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + Int64(millis)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }

    /// Seconds from `self` to `later`.
    public func seconds(to later: Timestamp) -> Double { Double(later.milliseconds - milliseconds) / 1000 }

    private func fields(offset: Int) -> (tm, Int) {
        let floorSeconds = floorDivision(milliseconds, 1000)
        var seconds = time_t(floorSeconds + Int64(offset))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (parts, Int(milliseconds - floorSeconds * 1000))
    }
}

/// `a / b` rounded down, for moments before 1970 too.
private func floorDivision(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }

/// `+01:00`, `-05:30`, `+00:00`.
public func offsetText(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return sign + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
}

/// Parses what ``offsetText(_:)`` writes.
public func parseOffset(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
        let hours = Int(String(decoding: bytes[1...2], as: UTF8.self)), let minutes = Int(String(decoding: bytes[4...5], as: UTF8.self)),
        hours < 24, minutes < 60
    else { return nil }
    return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
}

func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}

/// FNV-1a, 64 bits, as 16 hex digits: tells whether a routine's source changed between runs.
public func sourceHash(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
}
