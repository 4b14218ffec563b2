extension RegionIndex {
    /// The `k`-th smallest gap of `circles` (from 1, at most their count), equal gaps counted each:
    /// the gap a sort would put in place `k − 1`. The `k` smallest seen so far are kept in a max-heap,
    /// so that most candidates cost one comparison with its top, where a sort of every candidate
    /// moved them all.
    static func kthSmallestGap(_ circles: [(gap: Double, slot: Int32)], _ k: Int) -> Double {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: k) { heap in
            for i in 0..<k {
                let gap = circles[i].gap
                var place = i
                while place > 0, heap[(place - 1) / 2] < gap {
                    heap[place] = heap[(place - 1) / 2]
                    place = (place - 1) / 2
                }
                heap[place] = gap
            }
            for circle in circles[k...] where circle.gap < heap[0] {
                var place = 0
                while true {
                    let left = 2 * place + 1
                    guard left < k else { break }
                    let larger = left + 1 < k && heap[left + 1] > heap[left] ? left + 1 : left
                    guard heap[larger] > circle.gap else { break }
                    heap[place] = heap[larger]
                    place = larger
                }
                heap[place] = circle.gap
            }
            return heap[0]
        }
    }

    /// Keeps the first of each region listed more than once (a query over several cells meets a
    /// region in each of its cells). The slots seen go into an open-addressing table (Fibonacci
    /// hashing, linear probing), which costs a multiplication a slot where a `Set` hashed each with
    /// SipHash.
    static func removeRepeats(_ circles: inout [(gap: Double, slot: Int32)], _ others: inout [Int32]) {
        let total = circles.count + others.count
        guard total > 1 else { return }
        // At least twice as many places as slots, so that probes stay short.
        let bits = Int.bitWidth - (2 * total - 1).leadingZeroBitCount
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 1 << bits) { table in
            table.initialize(repeating: -1)
            let mask = (1 << bits) - 1
            func firstSeen(_ slot: Int32) -> Bool {
                var place = Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: slot)) &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits))
                while table[place] >= 0 {
                    if table[place] == slot { return false }
                    place = (place + 1) & mask
                }
                table[place] = slot
                return true
            }
            circles.removeAll { !firstSeen($0.slot) }
            others.removeAll { !firstSeen($0) }
        }
    }
}
