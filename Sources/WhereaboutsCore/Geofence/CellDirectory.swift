/// A hash map from grid-cell keys to cell numbers with open addressing: the key and its cell number
/// share one slot, so finding a cell costs one memory access in the common case (Swift's `Dictionary`
/// reads its occupancy bitmap, its keys and its values, three accesses that each miss the cache when a
/// fix lands far from the last one).
///
/// Keys are never removed: a cell that empties keeps its number and is reused when a region returns.
struct CellDirectory: Sendable {
    private struct Slot {
        var key: Int64
        var cell: Int32
    }

    /// No grid key equals this: rows and columns are far inside 32 bits.
    private static let vacant = Int64.min
    private var slots: [Slot]
    private var shift: UInt64
    /// How many keys are stored.
    private(set) var count = 0

    init() {
        slots = Array(repeating: Slot(key: Self.vacant, cell: 0), count: 64)
        shift = 64 - 6
    }

    /// Fibonacci hashing: the top bits of the key times 2⁶⁴/φ.
    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The cell number stored for `key`, if any.
    @inline(__always)
    func cell(for key: Int64) -> Int32? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var i = home(of: key)
            while true {
                let slot = slots[i]
                if slot.key == key { return slot.cell }
                if slot.key == Self.vacant { return nil }
                i = (i + 1) & mask
            }
        }
    }

    /// Stores `cell` for `key`, which must not be present yet.
    mutating func insert(_ key: Int64, cell: Int32) {
        if (count + 1) * 2 > slots.count { grow() }
        place(Slot(key: key, cell: cell))
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var i = home(of: slot.key)
        while slots[i].key != Self.vacant { i = (i + 1) & mask }
        slots[i] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: Self.vacant, cell: 0), count: old.count * 2)
        shift -= 1
        for slot in old where slot.key != Self.vacant { place(slot) }
    }
}
