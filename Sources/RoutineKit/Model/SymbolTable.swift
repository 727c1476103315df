/// Interns names by their UTF-8 bytes, so readers resolve node IDs without building a
/// `String` for every reference. Open addressing with linear probing; ids are dense from 0.
///
/// A slot holds a name's id and the high half of its hash, so a probe compares hashes
/// without touching another array, and growing needs no hash recomputed: the slot index is
/// taken from the hash's top bits, which the slot keeps.
struct SymbolTable {
    /// `hash & 0xFFFF_FFFF_0000_0000 | id + 1`; 0 is an empty slot.
    private var slots: [UInt64]
    private var shift: UInt64
    private var storage: [UInt8] = []
    /// Where name `id` starts in `storage`; it ends where `id + 1` starts.
    private var offsets: [Int] = [0]

    var count: Int { offsets.count - 1 }

    /// A table with room for `capacity` names of about eight bytes, so that reading a large
    /// routine does not copy the table as it grows.
    init(capacity: Int = 0) {
        var bits: UInt64 = 6
        while 3 << bits < capacity * 4 { bits += 1 }
        slots = Array(repeating: 0, count: 1 << Int(bits))
        shift = 64 - bits
        offsets.reserveCapacity(capacity + 1)
        storage.reserveCapacity(capacity * 8)
    }

    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = Self.hash(bytes)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash >> shift)
        while true {
            let slot = slots[i]
            if slot == 0 { break }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let id = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if equals(id, bytes) { return Int32(id) }
            }
            i = (i + 1) & mask
        }
        let id = Int32(count)
        slots[i] = tag | UInt64(id + 1)
        storage.append(contentsOf: bytes)
        offsets.append(storage.count)
        // At most three quarters full: probes stay short, and the table, which is touched
        // all over, stays small.
        if count * 4 > slots.count * 3 { grow() }
        return id
    }

    mutating func intern(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { intern($0) }
    }

    func name(_ id: Int32) -> String {
        String(decoding: storage[offsets[Int(id)]..<offsets[Int(id) + 1]], as: UTF8.self)
    }

    private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[id]
        guard offsets[id + 1] - start == bytes.count else { return false }
        return storage.withUnsafeBufferPointer { all in
            UnsafeBufferPointer(rebasing: all[start..<(start + bytes.count)]).hasSameBytes(as: bytes)
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            for slot in old where slot != 0 {
                var i = Int(truncatingIfNeeded: slot >> shift)
                while slots[i] != 0 { i = (i + 1) & mask }
                slots[i] = slot
            }
        }
    }

    /// Eight bytes at a time, multiplied and folded, then a final mix so that the top bits,
    /// which pick the slot, depend on every byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(bytes.count) &* k
        var i = 0
        if let base = bytes.baseAddress {
            while i + 8 <= bytes.count {
                h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* k
                h ^= h >> 29
                i += 8
            }
            if i < bytes.count { h = (h ^ UnsafeBufferPointer.tail(base + i, bytes.count - i)) &* k }
        }
        h ^= h >> 32
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 29)
    }
}
