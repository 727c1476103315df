import RoutineKit

/// Where this history syncs, and as which device.
public struct SyncSettings: Hashable, Sendable {
    public var folder: String
    /// 32 hexadecimal digits, the name of this device's folder in the sync folder.
    public var device: String
    public var name: String
}

/// What a sync brought in from one device.
public struct SyncArrival: Hashable, Sendable {
    public var device: String
    public var runs = 0, logs = 0, deletions = 0, daysOff = 0

    public var isEmpty: Bool { runs + logs + deletions + daysOff == 0 }
}

/// What a sync did: what came in from whom, and what it could not read.
public struct SyncReport: Sendable {
    public var arrivals: [SyncArrival] = []
    /// Events this device wrote to its journal.
    public var written = 0
    /// Lines and files that could not be read, each said once.
    public var problems: [Diagnostic] = []
}

/// One device as `sync status` lists it.
public struct SyncDevice: Hashable, Sendable {
    public var id: String
    public var name: String
    /// Its newest event's time, and how many of its events this history has.
    public var lastEvent: String?
    public var events: Int
    public var highestSequence: Int64
}

/// `sync status`: the devices, what this one has not written yet, and what could not be read.
public struct SyncStatus: Sendable {
    public var settings: SyncSettings
    public var devices: [SyncDevice]
    public var unwritten: Int
    public var problems: [String]
    /// Events dated more than a day ahead of this clock, by device: held until it gets there.
    public var held: [SyncHeldEvents] = []
}

/// The events of one device held for being dated more than a day ahead of this clock.
public struct SyncHeldEvents: Hashable, Sendable {
    /// The device's name (its id when it has none).
    public var device: String
    public var count: Int
    /// Whole days between this clock and the earliest of them, 1 at least.
    public var daysAhead: Int

    /// "2 events from desk dated a day ahead of this clock: held".
    public var sentence: String {
        let events = count == 1 ? "1 event" : "\(count) events"
        let ahead = daysAhead <= 1 ? "a day" : "\(daysAhead) days"
        return "\(events) from \(device) dated \(ahead) ahead of this clock: held"
    }
}
