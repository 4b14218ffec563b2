import CacheHints

/// The grid cells of a ``RegionIndex``: an open-addressing hash table from cell key to ``GridCell``,
/// with every cell's entries in one shared array, each cell's in its own block (of power-of-two
/// capacity while cells grow). Finding a fix's regions reads the cell's table slot, then its
/// entries: two dependent memory accesses and no reference counting, where a map to cells that
/// each own an array needs three and a retain.
///
/// Keys are never removed: a cell that empties keeps its table slot (and its block, until
/// ``shrinkToFit()``), and is reused when a region returns.
struct CellTable: Sendable {
    private var table: [GridCell]
    private var shift: UInt64
    /// How many cells exist.
    private var count = 0
    /// The blocks of entries, then ``padding`` unused ones.
    private var entries = Array(repeating: GridEntry.unused, count: padding)
    /// How many entries follow the last block, so that the entries of any cell can be read in groups
    /// of four from any position: the last group reaches at most three entries past the cell's end.
    static let padding = 3
    /// Where unused blocks start, by the base-2 logarithm of their capacity.
    private var freeBlocks: [[Int32]] = Array(repeating: [], count: 32)
    private static let smallestBlock: Int32 = 4

    init() {
        table = Array(repeating: GridCell(key: GridCell.vacant), count: 64)
        shift = 64 - 6
    }

    /// Fibonacci hashing: the top bits of the key times 2⁶⁴/φ.
    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Where `key` is in the table, if present.
    @inline(__always)
    private func position(of key: Int64) -> Int? {
        table.withUnsafeBufferPointer { table in
            let mask = table.count - 1
            var i = home(of: key)
            while true {
                if table[i].key == key { return i }
                if table[i].key == GridCell.vacant { return nil }
                i = (i + 1) & mask
            }
        }
    }

    /// Starts loading the table slot where `key` would first be looked for, without waiting for it.
    @inline(__always)
    func prefetch(_ key: Int64) {
        table.withUnsafeBufferPointer { cache_hints_prefetch($0.baseAddress! + home(of: key)) }
    }

    /// The cell with `key`, if it exists.
    @inline(__always)
    func cell(for key: Int64) -> GridCell? {
        position(of: key).map { table[$0] }
    }

    /// Calls `body` with the entries of `cell`, sorted by latitude. The ``padding`` entries after the
    /// buffer's end can be read too (they belong to another cell, or to none).
    @inline(__always)
    func withEntries<R>(of cell: GridCell, _ body: (UnsafeBufferPointer<GridEntry>) -> R) -> R {
        entries.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(cell.start)..<Int(cell.start + cell.count)])) }
    }

    /// Makes room for `count` more entries: twice as many places, since each cell's block is at most
    /// twice as large as its entries and blocks freed while cells grow are reused by other cells.
    /// Room already there is kept, and growing at least doubles it, so that repeated calls cost no
    /// more than appending.
    mutating func reserveCapacity(forAdding count: Int) {
        entries.reserveCapacity(growingTo: entries.count + 2 * count)
    }

    /// Moves every cell's entries into one new array without the room blocks keep for growth, and
    /// frees the old one: after a bulk insert that room is about a third of the memory. A cell
    /// that grows again moves to a new block.
    mutating func shrinkToFit() {
        var packed: [GridEntry] = []
        packed.reserveCapacity(table.reduce(Self.padding) { $0 + Int($1.count) })
        for position in table.indices where table[position].key != GridCell.vacant {
            let start = Int32(packed.count)
            withEntries(of: table[position]) { packed.append(contentsOf: $0) }
            table[position].start = start
            table[position].capacity = table[position].count
        }
        packed.append(contentsOf: repeatElement(GridEntry.unused, count: Self.padding))
        entries = packed
        freeBlocks = Array(repeating: [], count: freeBlocks.count)
    }

    /// Asks the system to back the table and the entries with huge pages (see ``RegionIndex/useHugePages()``).
    mutating func useHugePages() {
        table.withUnsafeMutableBytes(HugePages.use)
        entries.withUnsafeMutableBytes(HugePages.use)
    }

    /// Lists `entry` in the cell with `key`, creating the cell when needed.
    mutating func insert(_ entry: GridEntry, key: Int64, _ layout: StripeLayout) {
        let position = position(of: key) ?? create(key)
        if table[position].count == table[position].capacity { relocate(position) }
        let cell = table[position]
        let at = withEntries(of: cell) { GridCell.lowerBound($0, offset: entry.latitudeOffset) }
        entries.withUnsafeMutableBufferPointer { entries in
            let first = Int(cell.start) + at
            let end = Int(cell.start + cell.count)
            (entries.baseAddress! + first + 1).update(from: entries.baseAddress! + first, count: end - first)
            entries[first] = entry
        }
        table[position].noteInserted(entry, layout)
    }

    /// Removes the entries of the region in `slot` from the cell with `key`.
    mutating func remove(slot: Int32, key: Int64, _ layout: StripeLayout) {
        guard let position = position(of: key) else { return }
        let cell = table[position]
        let kept = entries.withUnsafeMutableBufferPointer { entries in
            var kept = Int(cell.start)
            for i in Int(cell.start)..<Int(cell.start + cell.count) where entries[i].regionSlot != slot {
                entries[kept] = entries[i]
                kept += 1
            }
            return Int32(kept) - cell.start
        }
        table[position].count = kept
        let stripes = withEntries(of: table[position]) { GridCell.stripeStarts(of: $0, layout) }
        table[position].stripeStarts = stripes
    }

    /// Adds an empty cell for `key` and returns its position.
    private mutating func create(_ key: Int64) -> Int {
        if (count + 1) * 2 > table.count { grow() }
        count += 1
        return place(GridCell(key: key))
    }

    private mutating func place(_ cell: GridCell) -> Int {
        let mask = table.count - 1
        var i = home(of: cell.key)
        while table[i].key != GridCell.vacant { i = (i + 1) & mask }
        table[i] = cell
        return i
    }

    private mutating func grow() {
        let old = table
        table = Array(repeating: GridCell(key: GridCell.vacant), count: old.count * 2)
        shift -= 1
        for cell in old where cell.key != GridCell.vacant { _ = place(cell) }
    }

    /// Moves the full cell at `position` to a block of the next power of two above its count (the
    /// smallest block for a new cell) and frees its old block for another cell. Blocks shrunk to fit
    /// hold any count, so the next power of two, not twice the old capacity, keeps blocks in their
    /// size classes.
    private mutating func relocate(_ position: Int) {
        let cell = table[position]
        let capacity = max(Self.smallestBlock, Int32(1) << (Int32.bitWidth - cell.count.leadingZeroBitCount))
        let size = capacity.trailingZeroBitCount
        let start: Int32
        if let free = freeBlocks[size].popLast() {
            start = free
        } else {
            start = Int32(entries.count - Self.padding)
            entries.append(contentsOf: repeatElement(GridEntry.unused, count: Int(capacity)))
        }
        entries.withUnsafeMutableBufferPointer { entries in
            (entries.baseAddress! + Int(start)).update(from: entries.baseAddress! + Int(cell.start), count: Int(cell.count))
        }
        // A block shrunk to fit may hold any number of entries: it serves the largest power of two it holds.
        if cell.capacity > 0 { freeBlocks[Int32.bitWidth - 1 - cell.capacity.leadingZeroBitCount].append(cell.start) }
        table[position].start = start
        table[position].capacity = capacity
    }
}
