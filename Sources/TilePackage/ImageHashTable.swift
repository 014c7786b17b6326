/// Remembers, by a hash of its bytes, which stored image holds a tile's bytes, so that
/// identical tiles are stored once.
///
/// Lives in memory, so that deduplication costs no index in the file; it grows with the
/// distinct images up to `maximumCapacity` slots (24 MiB, some 1.5 million images) and then
/// forgets the odd entry to make room: past that, an identical tile may now and then be
/// stored twice, never mixed up with another (the table only proposes candidates; the
/// caller compares bytes).
///
/// - Important: not thread-safe.
final class ImageHashTable {
    /// Per slot, 32 bits of the hash (never 0; 0 marks an empty slot), which also place the
    /// entry: probing reads only these, four bytes a slot, so that the table of a copy of a
    /// few hundred thousand images stays in the processor's cache. Owned, freed in deinit.
    private var fingerprints: UnsafeMutablePointer<UInt32>
    /// The image id of each slot, read only when its fingerprint matches. Owned, freed in deinit.
    private var ids: UnsafeMutablePointer<Int64>
    private var capacity: Int
    private(set) var count = 0
    /// Slots looked at from an entry's home slot before giving up (on lookup) or evicting
    /// (on insertion into a full table).
    private static let window = 16
    static let maximumCapacity = 1 << 21

    /// - Parameter expected: the distinct images expected, to size the table once.
    init(expected: Int = 1 << 12) {
        capacity = Self.capacity(for: expected)
        (fingerprints, ids) = Self.allocate(capacity)
    }

    deinit {
        fingerprints.deallocate()
        ids.deallocate()
    }

    /// Makes room for `expected` distinct images in all, without growing one step at a time.
    func reserve(_ expected: Int) {
        let wanted = Self.capacity(for: expected)
        if wanted > capacity { rehash(into: wanted) }
    }

    /// The first image among those recorded for `hash` that `matches` accepts.
    func firstID(for hash: UInt64, where matches: (Int64) throws -> Bool) rethrows -> Int64? {
        let fingerprint = Self.fingerprint(hash)
        let mask = capacity - 1
        var index = Int(fingerprint) & mask
        for _ in 0..<Self.window {
            let stored = fingerprints[index]
            if stored == 0 { return nil }
            if stored == fingerprint, try matches(ids[index]) { return ids[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Records that image `id` has bytes of `hash`.
    func insert(hash: UInt64, id: Int64) {
        insert(fingerprint: Self.fingerprint(hash), id: id)
    }

    private func insert(fingerprint: UInt32, id: Int64) {
        // Linear probing keeps working up to about 3/4 full.
        if count * 4 >= capacity * 3 && capacity < Self.maximumCapacity { rehash(into: capacity * 2) }
        let mask = capacity - 1
        let home = Int(fingerprint) & mask
        var index = home
        for _ in 0..<Self.window {
            if fingerprints[index] == 0 {
                fingerprints[index] = fingerprint
                ids[index] = id
                count += 1
                return
            }
            index = (index + 1) & mask
        }
        // Full around home: forget the entry there (the table is at its largest).
        fingerprints[home] = fingerprint
        ids[home] = id
    }

    private static func fingerprint(_ hash: UInt64) -> UInt32 {
        let high = UInt32(truncatingIfNeeded: hash >> 32)
        return high == 0 ? 1 : high
    }

    private func rehash(into newCapacity: Int) {
        let (oldFingerprints, oldIDs) = (fingerprints, ids)
        let oldCapacity = capacity
        (fingerprints, ids) = Self.allocate(newCapacity)
        capacity = newCapacity
        count = 0
        for i in 0..<oldCapacity where oldFingerprints[i] != 0 { insert(fingerprint: oldFingerprints[i], id: oldIDs[i]) }
        oldFingerprints.deallocate()
        oldIDs.deallocate()
    }

    /// A power of two with room for `expected` entries at 2/3 load, within the bounds.
    private static func capacity(for expected: Int) -> Int {
        var c = window
        while c < Self.maximumCapacity && 2 * c < 3 * expected { c *= 2 }
        return c
    }

    private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int64>) {
        let fingerprints = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        fingerprints.initialize(repeating: 0, count: capacity)
        // Ids are read only where a fingerprint is set, so they need no initial value.
        return (fingerprints, UnsafeMutablePointer<Int64>.allocate(capacity: capacity))
    }

    /// A 64-bit hash of a tile's bytes. Not cryptographic: candidates are always checked byte
    /// for byte. Tiles run to tens of kilobytes, so the bulk goes 32 bytes a step in four
    /// independent lanes, whose multiplications the processor overlaps (one lane waits on
    /// its own multiplication every eight bytes).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        @inline(__always) func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
            let m = (h ^ word) &* multiplier
            return m ^ (m >> 29)
        }
        let count = bytes.count
        var a = UInt64(truncatingIfNeeded: count) &* multiplier
        var offset = 0
        if count >= 32 {
            var b = a ^ 0x6A09_E667_F3BC_C908, c = a ^ 0xBB67_AE85_84CA_A73B, d = a ^ 0x3C6E_F372_FE94_F82B
            while offset + 32 <= count {
                a = mix(a, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                b = mix(b, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                c = mix(c, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                d = mix(d, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            a = mix(mix(mix(a, b), c), d)
        }
        while offset + 8 <= count {
            a = mix(a, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        var h = (a ^ tail) &* multiplier
        // MurmurHash3's finaliser: every input bit reaches the low bits used for slots.
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }
}
