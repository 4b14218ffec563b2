import Foundation

/// The records of ``FixCrossingLog`` by slot: an open-addressing hash table with linear probing,
/// Fibonacci hashing of the slot and deletion by shifting back, so that no tombstones build up.
///
/// A dictionary keyed by slot hashed every key with SipHash and checked its storage's uniqueness at
/// every write: while scattered fixes cross five to eleven regions each, noting and dropping their
/// records was a sixth of a fix's evaluation. The table answers exactly as that dictionary did.
struct CrossingTable {
    private struct Bucket {
        var slot: Int32
        var crossings: GeofenceRule.FixCrossings
    }

    /// The slot of an empty bucket: slots are never negative.
    private static let vacant: Int32 = -1
    private var buckets = Array(repeating: Bucket(slot: vacant, crossings: .init()), count: 16)
    /// 64 minus the base-2 logarithm of the bucket count.
    private var shift: UInt64 = 60

    /// How many slots have a record.
    private(set) var count = 0

    /// The record of `slot`, if it has one.
    subscript(slot: Int32) -> GeofenceRule.FixCrossings? {
        buckets.withUnsafeBufferPointer { buckets in
            let found = Self.position(of: slot, in: buckets, shift: shift)
            return found.present ? buckets[found.index].crossings : nil
        }
    }

    /// Sets the last crossing of `kind` of `slot` to `time`, adding a record when it has none, and
    /// returns the later of the record's two crossings.
    mutating func set(_ kind: RegionEventKind, ofSlot slot: Int32, to time: Date) -> Date {
        if (count + 1) * 2 > buckets.count { grow() }
        let shift = shift
        let (latest, added) = buckets.withUnsafeMutableBufferPointer { buckets in
            let found = Self.position(of: slot, in: UnsafeBufferPointer(buckets), shift: shift)
            if !found.present { buckets[found.index] = Bucket(slot: slot, crossings: .init()) }
            buckets[found.index].crossings[kind] = time
            return (buckets[found.index].crossings.latest, !found.present)
        }
        if added { count += 1 }
        return latest
    }

    /// Removes the record of `slot` when it has one and `keep` does not hold for it.
    mutating func remove(_ slot: Int32, unless keep: (GeofenceRule.FixCrossings) -> Bool = { _ in false }) {
        let shift = shift
        let removed = buckets.withUnsafeMutableBufferPointer { buckets -> Bool in
            let found = Self.position(of: slot, in: UnsafeBufferPointer(buckets), shift: shift)
            guard found.present, !keep(buckets[found.index].crossings) else { return false }
            Self.shiftBack(into: found.index, buckets, shift: shift)
            return true
        }
        if removed { count -= 1 }
    }

    /// Where `slot` is, or the empty bucket where it would go.
    @inline(__always)
    private static func position(
        of slot: Int32, in buckets: UnsafeBufferPointer<Bucket>, shift: UInt64
    ) -> (index: Int, present: Bool) {
        let mask = buckets.count - 1
        var i = home(of: slot, shift: shift)
        while true {
            if buckets[i].slot == slot { return (i, true) }
            if buckets[i].slot == vacant { return (i, false) }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    private static func home(of slot: Int32, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: slot)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Empties the bucket at `hole`, moving back each later bucket of its run that may sit there, so
    /// that every record stays reachable from its home without tombstones.
    private static func shiftBack(into hole: Int, _ buckets: UnsafeMutableBufferPointer<Bucket>, shift: UInt64) {
        let mask = buckets.count - 1
        var hole = hole
        var next = (hole + 1) & mask
        while buckets[next].slot != vacant {
            let home = home(of: buckets[next].slot, shift: shift)
            // The record at `next` may move to `hole` when its home is not cyclically within (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole].slot = vacant
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(slot: Self.vacant, crossings: .init()), count: old.count * 2)
        shift -= 1
        let shift = shift
        buckets.withUnsafeMutableBufferPointer { buckets in
            for bucket in old where bucket.slot != Self.vacant {
                let found = Self.position(of: bucket.slot, in: UnsafeBufferPointer(buckets), shift: shift)
                buckets[found.index] = bucket
            }
        }
    }

    /// Every record with its slot, in no order.
    var records: [(slot: Int32, crossings: GeofenceRule.FixCrossings)] {
        buckets.compactMap { $0.slot == Self.vacant ? nil : ($0.slot, $0.crossings) }
    }
}
