/// Interns names by their UTF-8 bytes, so readers resolve node IDs without building a
/// `String` for every reference. Open addressing with linear probing; ids are dense from 0.
struct SymbolTable {
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var storage: [UInt8] = []
    private var offsets: [Int] = [0]

    var count: Int { hashes.count }

    /// A table with room for `capacity` names of about eight bytes, so that reading a large
    /// routine does not copy the table as it grows.
    init(capacity: Int = 0) {
        var slotCount = 64
        while slotCount < capacity * 2 { slotCount *= 2 }
        slots = Array(repeating: -1, count: slotCount)
        hashes.reserveCapacity(capacity)
        offsets.reserveCapacity(capacity + 1)
        storage.reserveCapacity(capacity * 8)
    }

    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = slots[i]
            if id < 0 { break }
            if hashes[Int(id)] == hash, equals(Int(id), bytes) { return id }
            i = (i + 1) & mask
        }
        let id = Int32(hashes.count)
        hashes.append(hash)
        storage.append(contentsOf: bytes)
        offsets.append(storage.count)
        slots[i] = id
        if hashes.count * 2 > slots.count { grow() }
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
        let end = offsets[id + 1]
        guard end - start == bytes.count else { return false }
        return storage.withUnsafeBufferPointer { all in
            var k = 0
            while k < bytes.count {
                if all[start + k] != bytes[k] { return false }
                k += 1
            }
            return true
        }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        slots = Array(repeating: -1, count: capacity)
        let mask = capacity - 1
        for (id, hash) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: hash) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(id)
        }
    }

    /// FNV-1a, then a final mix so that low bits, which pick the slot, depend on every byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        h ^= h >> 29
        h = h &* 0xbf58_476d_1ce4_e5b9
        return h ^ (h >> 32)
    }
}
