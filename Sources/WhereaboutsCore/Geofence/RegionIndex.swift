import CacheHints
import Foundation

/// A spatial index of regions: a uniform grid of latitude/longitude cells, each listing the regions
/// whose enclosing circle, grown by ``registrationMargin``, overlaps it. Each listing carries a compact
/// copy of the circle (single-precision centre and radius), so a query scans one contiguous array and
/// reads a region itself only for the few candidates that pass.
///
/// Because of that margin, every region within ``registrationMargin`` metres of a point is listed in
/// the one cell holding the point: the common query (a GPS fix and its accuracy) reads a single cell.
/// Wider queries read the cells under their box. Adding and removing a region touches only its own
/// cells. Regions too large for the grid (or reaching a pole) live in a short list every query reads.
/// Each region has a *slot*, a small integer that stays fixed while it is in the index, so that
/// callers can keep per-region state in flat arrays.
public struct RegionIndex: Sendable {
    /// Cell size in degrees of latitude and longitude.
    public let cellDegrees: Double
    /// Metres by which each region is grown when registered in cells: a fix with accuracy up to 75 m
    /// (its reach is 25 m more) reads one cell.
    public static let registrationMargin: Double = 100
    private static let maximumCellsPerRegion = 256
    private static let maximumCellsPerQuery = 20_000

    private var slots: [Region?] = []

    /// The south-west corner of the cell with `key`.
    @inline(__always)
    private func corner(of key: Int64) -> (latitude: Double, longitude: Double) {
        (Double(key >> 32) * cellDegrees, Double(key & 0xFFFF_FFFF) * cellDegrees)
    }

    /// Each slot's ``RegionIDOrder`` key, beside the regions: ordering a fix's changes then reads
    /// 8 bytes per region and computes nothing.
    private var idKeys: [UInt64] = []
    private var freeSlots: [Int32] = []
    private var slotByID: [String: Int32] = [:]
    private var cells = CellTable()
    private let stripes: StripeLayout
    private var wide: [Int32] = []
    private let columnsPerTurn: Int

    /// Creates an empty index with cells of about `cellDegrees` degrees (0.01° ≈ 1.1 km of latitude).
    ///
    /// The size is rounded to the nearest that divides 360° (0.007° becomes 360°/51 429), so that the
    /// columns wrap at the antimeridian without a narrower last column: otherwise a point just east of
    /// −180° and a region just west of +180° would fall in columns that do not meet. The size kept is
    /// ``cellDegrees``; the default, 0.01°, divides 360° already.
    ///
    /// - Precondition: `cellDegrees` is a positive number of degrees, at most 360.
    public init(cellDegrees: Double = 0.01) {
        precondition(cellDegrees.isFinite && cellDegrees > 0 && cellDegrees <= 360, "cellDegrees must be in (0, 360], not \(cellDegrees)")
        let turn = (360 / cellDegrees).rounded()
        self.cellDegrees = 360 / turn
        stripes = StripeLayout(cellDegrees: self.cellDegrees)
        columnsPerTurn = Int(turn)
    }

    /// The number of regions in the index.
    public var count: Int { slotByID.count }

    /// One more than the highest slot in use: the size of per-slot arrays.
    public var slotCapacity: Int { slots.count }

    /// All regions, sorted by id.
    public var regions: [Region] { slotByID.keys.sorted().map { slots[Int(slotByID[$0]!)]! } }

    /// The region with the given id, if present.
    public subscript(id: String) -> Region? { slotByID[id].flatMap { slots[Int($0)] } }

    /// The slot of the region with the given id, if present.
    public func slot(of id: String) -> Int32? { slotByID[id] }

    /// The region in `slot`, if the slot is in use.
    public func region(atSlot slot: Int32) -> Region? { slots[Int(slot)] }

    /// Signed distance in metres from the origin of `frame` to the outline of the region in `slot`
    /// (negative inside), and the region's ``Region/size`` (a circle's radius, a polygon's inradius):
    /// read in place, without copying the region. An outline more than `reach` metres away is not
    /// measured: its distance is given as `reach + 1`, which (within the frame's centimetres) it is
    /// at least, as its enclosing circle is that far.
    @inline(__always)
    func boundary(ofSlot slot: Int32, from frame: LocalFrame, within reach: Double) -> (signedDistance: Double, size: Double) {
        reachableBoundary(ofSlot: slot, from: frame, within: reach + 1) ?? (
            reach + 1, slots.withUnsafeBufferPointer { $0[Int(slot)]!.size }
        )
    }

    /// Like ``boundary(ofSlot:from:within:)``, but `nil` when the region's enclosing circle is more
    /// than `reach` metres away, where a scan within `reach` would not find it.
    @inline(__always)
    func reachableBoundary(ofSlot slot: Int32, from frame: LocalFrame, within reach: Double) -> (signedDistance: Double, size: Double)? {
        slots.withUnsafeBufferPointer { slots in
            let r = slots[Int(slot)]!.radius
            let center = slots[Int(slot)]!.center
            guard let s = frame.outlineDistance(toLatitude: center.latitude, longitude: center.longitude, radius: r, within: reach) else {
                return nil
            }
            switch slots[Int(slot)]!.shape {
            case .circle: return (s, r)
            case .polygons(let set): return (set.signedDistance(from: frame.origin), set.inradius)
            }
        }
    }

    /// The ``RegionIDOrder`` key of the id of the region in `slot`: ``RegionIDOrder/none`` when
    /// the ids must be compared in full.
    @inline(__always)
    func idKey(ofSlot slot: Int32) -> UInt64 { idKeys[Int(slot)] }

    /// Whether the id of the region in `slot` sorts before that of the region in `other`, read in place.
    func id(ofSlot slot: Int32, precedes other: Int32) -> Bool {
        slots.withUnsafeBufferPointer { $0[Int(slot)]!.id < $0[Int(other)]!.id }
    }

    /// Whether the region in `slot` asks to be told of `kind` (enter or exit), read in place.
    @inline(__always)
    func notifies(ofSlot slot: Int32, of kind: RegionEventKind) -> Bool {
        slots.withUnsafeBufferPointer { kind == .enter ? $0[Int(slot)]!.notifyOnEntry : $0[Int(slot)]!.notifyOnExit }
    }

    /// The id of the region in `slot`, read in place.
    @inline(__always)
    func id(ofSlot slot: Int32) -> String {
        slots.withUnsafeBufferPointer { $0[Int(slot)]!.id }
    }

    /// Starts loading what reporting a change of the region in `slot` reads (its id key and its
    /// record), without waiting for it.
    @inline(__always)
    func prefetchRecord(ofSlot slot: Int32) {
        idKeys.withUnsafeBufferPointer { cache_hints_prefetch($0.baseAddress! + Int(slot)) }
        slots.withUnsafeBufferPointer {
            // Both cache lines a record may span: its first byte's and its last's.
            let record = UnsafeRawPointer($0.baseAddress! + Int(slot))
            cache_hints_prefetch(record)
            cache_hints_prefetch(record + MemoryLayout<Region?>.stride - 1)
        }
    }

    /// Starts loading the table slot of the cell holding `point`, without waiting for it.
    @inline(__always)
    func prefetchCell(at point: Coordinate) {
        cells.prefetch(key(latitude: point.latitude, longitude: point.longitude))
    }

    /// Adds a region, replacing any region with the same id, and returns its slot.
    @discardableResult
    public mutating func insert(_ region: Region) -> Int32 { insertReplacing(region).slot }

    /// Adds a region like ``insert(_:)``, and also returns the slot of the region with the same id
    /// that it replaced, if any: finding out beforehand would hash the id once more.
    mutating func insertReplacing(_ region: Region) -> (slot: Int32, replaced: Int32?) {
        let replaced = remove(id: region.id)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)] = region
            idKeys[Int(slot)] = RegionIDOrder.key(of: region.id)
        } else {
            slot = Int32(slots.count)
            slots.append(region)
            idKeys.append(RegionIDOrder.key(of: region.id))
        }
        slotByID[region.id] = slot
        if let keys = cellKeys(around: region.center, margin: region.radius + Self.registrationMargin, limit: Self.maximumCellsPerRegion) {
            for key in keys { cells.insert(GridEntry(region, slot: slot, corner: corner(of: key)), key: key, stripes) }
        } else {
            wide.append(slot)
        }
        return (slot, replaced)
    }

    /// Makes room for `regions`, about to be inserted: their ids, their slots and their cell entries,
    /// so that storage grows once instead of doubling step by step. Each step would copy (and for
    /// ids, hash) everything again, and leave the old copy behind as free heap memory. Room that is
    /// never used is never touched, so it costs no memory; room grows at least twofold, so that
    /// repeated calls cost no more than appending.
    public mutating func reserveCapacity(for regions: some Sequence<Region>) {
        var entries = 0
        var count = 0
        for region in regions {
            count += 1
            guard let span = cellSpan(around: region.center, margin: region.radius + Self.registrationMargin),
                span.rows.count * span.columns <= Self.maximumCellsPerRegion
            else { continue }
            entries += span.rows.count * span.columns
        }
        cells.reserveCapacity(forAdding: entries)
        if slotByID.count + count > slotByID.capacity { slotByID.reserveCapacity(max(slotByID.count + count, 2 * slotByID.capacity)) }
        slots.reserveCapacity(growingTo: slots.count + count)
        idKeys.reserveCapacity(growingTo: idKeys.count + count)
    }

    /// Releases the room kept for cells to grow, about a third of the index's cell memory after many
    /// inserts. Call it after a bulk insert; inserting more afterwards still works.
    public mutating func shrinkToFit() {
        cells.shrinkToFit()
    }

    /// Asks the system to back the index's large arrays with huge pages, where it can (Linux, by a
    /// transparent huge page collapse; elsewhere this does nothing). With a million regions, fixes
    /// landing anywhere otherwise spend much of their time on TLB misses. Call it after a bulk insert
    /// and ``shrinkToFit()``: arrays that grow later move to ordinary pages.
    public mutating func useHugePages() {
        cells.useHugePages()
        slots.withUnsafeMutableBytes(HugePages.use)
        idKeys.withUnsafeMutableBytes(HugePages.use)
    }

    /// Removes the region with the given id and returns the slot it had; does nothing when absent.
    @discardableResult
    public mutating func remove(id: String) -> Int32? {
        guard let slot = slotByID.removeValue(forKey: id), let region = slots[Int(slot)] else { return nil }
        slots[Int(slot)] = nil
        freeSlots.append(slot)
        if let keys = cellKeys(around: region.center, margin: region.radius + Self.registrationMargin, limit: Self.maximumCellsPerRegion) {
            for key in keys {
                cells.remove(slot: slot, key: key, stripes)
            }
        } else {
            wide.removeAll { $0 == slot }
        }
        return slot
    }

    /// A region found near a point.
    public struct Candidate: Sendable {
        /// The region's slot.
        public let slot: Int32
        /// Metres from the point to the region's circle (the distance of ``LocalFrame``, within
        /// centimetres; negative inside).
        public let distance: Double
        /// The circle's radius in metres.
        public let radius: Double
        /// Whether the region is that circle; for a polygon the distance is only a lower bound.
        public let isCircle: Bool
    }

    /// Calls `body` once for every region whose enclosing circle comes within `margin` metres of the
    /// origin of `frame`.
    @inline(__always)
    public func forEachWithin(_ margin: Double, of frame: LocalFrame, _ body: (Candidate) -> Void) {
        @inline(__always) func visit(_ slot: Int32) {
            let region = slots[Int(slot)]!
            let r = region.radius
            guard
                let s = frame.outlineDistance(
                    toLatitude: region.center.latitude, longitude: region.center.longitude, radius: r, within: margin)
            else { return }
            body(Candidate(slot: slot, distance: s, radius: r, isCircle: region.isCircle))
        }
        let point = frame.origin
        if margin <= Self.registrationMargin {
            for slot in wide { visit(slot) }
            let key = key(latitude: point.latitude, longitude: point.longitude)
            guard let cell = cells.cell(for: key) else { return }
            scan(cell, near: frame, within: margin) { entry, distance in
                body(Candidate(slot: entry.regionSlot, distance: distance, radius: Double(entry.radius), isCircle: entry.isCircle))
            }
            return
        }
        guard let keys = cellKeys(around: point, margin: margin, limit: Self.maximumCellsPerQuery) else {
            for (slot, region) in slots.enumerated() where region != nil { visit(Int32(slot)) }
            return
        }
        for slot in wide { visit(slot) }
        var seen = Set<Int32>(wide)
        for key in keys {
            guard let cell = cells.cell(for: key) else { continue }
            cells.withEntries(of: cell) { entries in
                for entry in entries where seen.insert(entry.regionSlot).inserted { visit(entry.regionSlot) }
            }
        }
    }

    /// Calls `body` for the entries of `cell` whose circle comes within `margin` metres of the origin
    /// of `frame`, with the distance to the circle, reading only the band of latitudes that can matter.
    ///
    /// Entries are read four at a time, and most in the band are rejected together in single
    /// precision, against a distance that can only be shorter than the true one (longitude scaled by
    /// the smallest cosine in the band); the few left are measured by `frame`.
    @inline(__always)
    private func scan(_ cell: GridCell, near frame: LocalFrame, within margin: Double, _ body: (GridEntry, Double) -> Void) {
        let corner = corner(of: cell.key)
        let band = (margin + Double(cell.maxRadius)) / Geodesy.metresPerDegreeLatitude
        let pointOffset = frame.origin.latitude - corner.latitude
        let first = cell.start(atOrSouthOf: pointOffset - band, stripes)
        let top = Float(pointOffset + band)
        let pointLatitude = Float(pointOffset)
        let pointLongitudeOffset = Geodesy.wrapped(frame.origin.longitude - corner.longitude)
        let pointLongitude = Float(pointLongitudeOffset)
        let yScale = Float(Geodesy.metresPerDegreeLatitude)
        let xScale = Float(Geodesy.metresPerDegreeLatitude * frame.smallestCosine(within: band))
        // An entry is near when its centre is within (margin + radius)·1.0001 + 1 cm, which covers the
        // single-precision rounding: radius·1.0001 + slack.
        let slack = Float(margin) * 1.0001 + 0.01
        // Both offsets are from the cell's corner, so their difference needs no wrapping.
        func measure(_ entry: GridEntry) {
            let dLat = Double(entry.latitudeOffset) - pointOffset
            let dLon = Double(entry.longitudeOffset) - pointLongitudeOffset
            if let s = frame.outlineDistance(latitudeOffset: dLat, longitudeOffset: dLon, radius: Double(entry.radius), within: margin) {
                body(entry, s)
            }
        }
        cells.withEntries(of: cell) { entries in
            guard let base = entries.baseAddress else { return }
            let size = MemoryLayout<GridEntry>.stride
            var i = first
            var lanes = SIMDMask<SIMD4<Int32>>(repeating: true)
            while i < entries.count {
                // The last lanes past the cell's end (see CellTable.padding) are masked off.
                if i + 4 > entries.count { lanes = (SIMD4<Int32>(0, 1, 2, 3) .< Int32(truncatingIfNeeded: entries.count - i)) }
                // Four entries as rows of latitude offset, longitude offset, radius and slot bits, read
                // as columns.
                let group = UnsafeRawPointer(base + i)
                let a = group.loadUnaligned(as: SIMD4<Float>.self)
                let b = group.loadUnaligned(fromByteOffset: size, as: SIMD4<Float>.self)
                let c = group.loadUnaligned(fromByteOffset: 2 * size, as: SIMD4<Float>.self)
                let d = group.loadUnaligned(fromByteOffset: 3 * size, as: SIMD4<Float>.self)
                let latitude = SIMD4(a.x, b.x, c.x, d.x)
                let longitude = SIMD4(a.y, b.y, c.y, d.y)
                let radius = SIMD4(a.z, b.z, c.z, d.z)
                let y = (latitude - pointLatitude) * yScale
                let x = (longitude - pointLongitude) * xScale
                let limit = radius * 1.0001 + slack
                let inBand = latitude .<= top
                let near = (x * x + y * y .<= limit * limit) .& inBand .& lanes
                // The near lanes as bits, visited lowest first: a branch per near lane, not one per lane.
                var nearLanes = SIMD4<Int32>.zero.replacing(with: SIMD4(1, 2, 4, 8), where: near).wrappedSum()
                while nearLanes != 0 {
                    measure(entries[i + nearLanes.trailingZeroBitCount])
                    nearLanes &= nearLanes &- 1
                }
                if !all(inBand) { break }
                i += 4
            }
        }
    }

    /// Every region whose enclosing circle may come within `margin` metres of `point`, each once (a
    /// superset: a metre is added to cover the flat-earth distance; callers compute exact distances).
    public func candidates(near point: Coordinate, within margin: Double) -> [Region] {
        var found: [Region] = []
        forEachWithin(margin + 1, of: LocalFrame(at: point)) { found.append(slots[Int($0.slot)]!) }
        return found
    }

    /// The ids of the regions `point` may be in given `accuracy` metres: those whose outline is at
    /// most `accuracy` metres away (great-circle distance; the flat-earth distance decides where it
    /// is more than half a metre from the limit), sorted.
    public func containing(_ point: Coordinate, accuracy: Double) -> [String] {
        var ids: [String] = []
        forEachWithin(accuracy + 1, of: LocalFrame(at: point)) { candidate in
            let region = slots[Int(candidate.slot)]!
            let clear = candidate.isCircle && abs(candidate.distance - accuracy) > 0.5
            if clear ? candidate.distance <= accuracy : region.signedDistance(from: point) <= accuracy { ids.append(region.id) }
        }
        return ids.sorted()
    }

    /// How far a boundary distance measured from a cell entry can be from the exact one: the flat
    /// frame's error and the single-precision centre and radius together stay well under this.
    private static let entryTolerance = 0.25

    /// The regions whose boundary is nearest to `point`, nearest first, at most `limit` of them, each
    /// with its boundary distance in metres (how far the outline is, inside or outside).
    ///
    /// Circles are ranked by the distances their cell entries give, so only the shortlist that can
    /// make the cut is read and measured exactly; polygons and regions too large for the grid are
    /// always measured exactly.
    public func nearestBoundaries(to point: Coordinate, limit: Int) -> [(region: Region, distance: Double)] {
        nearestBoundarySlots(to: point, limit: limit).map { ($0.region, $0.distance) }
    }

    /// ``nearestBoundaries(to:limit:)`` with each region's slot.
    func nearestBoundarySlots(to point: Coordinate, limit: Int) -> [(slot: Int32, region: Region, distance: Double)] {
        guard limit > 0, count > 0 else { return [] }
        let frame = LocalFrame(at: point)
        var reach = 60.0
        var circles: [(gap: Double, slot: Int32)] = []
        var others: [Int32] = []
        while true {
            circles.removeAll(keepingCapacity: true)
            others.removeAll(keepingCapacity: true)
            let repeats = forEachBoundaryCandidate(near: frame, within: reach) { slot, gap in
                if let gap { circles.append((gap, slot)) } else { others.append(slot) }
            }
            if repeats { Self.removeRepeats(&circles, &others) }
            // Every circle within the cut is measured, in any order: the found are sorted.
            let cut = circles.count >= limit ? Self.kthSmallestGap(circles, limit) + 2 * Self.entryTolerance : .infinity
            var found: [(slot: Int32, region: Region, distance: Double)] = []
            func measure(_ slot: Int32) {
                let region = slots[Int(slot)]!
                let boundary = abs(region.signedDistance(from: point))
                if boundary <= reach { found.append((slot, region, boundary)) }
            }
            for circle in circles where circle.gap <= cut { measure(circle.slot) }
            others.forEach(measure)
            if found.count >= limit || found.count == count || reach > Geodesy.earthRadius * .pi {
                found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.region.id < $1.region.id }
                return Array(found.prefix(limit))
            }
            let candidates = circles.count + others.count
            reach *= min(4, max(1.5, Double(limit) / Double(max(candidates, 1)) * 1.2))
        }
    }

    /// Calls `body` for every region whose boundary may lie within `reach` metres of the origin of
    /// `frame`, with the boundary distance its cell entry gives (within ``entryTolerance``), or `nil`
    /// for a region that must be measured exactly. Returns whether a region may have been reported
    /// more than once.
    ///
    /// A circle registered with ``registrationMargin`` is listed in every cell within that margin of
    /// its outline, so the cells under the box of `reach − registrationMargin` metres hold every
    /// boundary within `reach`: the point's own cell alone when `reach` is within the margin.
    ///
    /// A circle's boundary is its outline, at the absolute distance to it. A polygon's lies anywhere
    /// within its enclosing circle: the distance to that circle bounds it only from outside, and a
    /// point inside the circle may be metres from the polygon's edge however deep it is, so such a
    /// polygon is always reported. (Its enclosing circle covers the point's own cell, so it is listed there.)
    private func forEachBoundaryCandidate(near frame: LocalFrame, within reach: Double, _ body: (Int32, Double?) -> Void) -> Bool {
        let point = frame.origin
        guard let keys = cellKeys(around: point, margin: max(0, reach - Self.registrationMargin + 1), limit: Self.maximumCellsPerQuery)
        else {
            for case (let slot, let region?) in slots.enumerated() {
                let r = region.radius
                guard let d = frame.distance(toLatitude: region.center.latitude, longitude: region.center.longitude, within: reach + r)
                else { continue }
                guard (region.isCircle ? abs(d - r) : d - r) <= reach + 1 else { continue }
                body(Int32(slot), nil)
            }
            return false
        }
        for slot in wide { body(slot, nil) }
        for key in keys {
            guard let cell = cells.cell(for: key) else { continue }
            scan(cell, near: frame, within: reach) { entry, distance in
                if entry.isCircle {
                    guard abs(distance) <= reach + 1 else { return }
                    body(entry.regionSlot, abs(distance))
                } else {
                    body(entry.regionSlot, nil)
                }
            }
        }
        return keys.count > 1
    }

    @inline(__always)
    private func key(latitude: Double, longitude: Double) -> Int64 {
        let row = Int64((latitude / cellDegrees).rounded(.down))
        var column = Int((longitude / cellDegrees).rounded(.down)) % columnsPerTurn
        if column < 0 { column += columnsPerTurn }
        return row << 32 | Int64(column)
    }

    /// The rows and columns of the grid cells covering the box of `margin` metres around `point`, or
    /// `nil` when that box reaches a pole.
    private func cellSpan(around point: Coordinate, margin: Double) -> (rows: ClosedRange<Int>, firstColumn: Int, columns: Int)? {
        let dLat = margin / Geodesy.metresPerDegreeLatitude
        let south = point.latitude - dLat
        let north = point.latitude + dLat
        guard south > -89.5, north < 89.5 else { return nil }
        let widestLatitude = max(abs(south), abs(north)) * .pi / 180
        let dLon = dLat / cos(widestLatitude)
        let first = Int(((point.longitude - dLon) / cellDegrees).rounded(.down))
        let last = Int(((point.longitude + dLon) / cellDegrees).rounded(.down))
        let rows = Int((south / cellDegrees).rounded(.down))...Int((north / cellDegrees).rounded(.down))
        return (rows, first, min(last - first + 1, columnsPerTurn))
    }

    /// The grid cells covering the box of `margin` metres around `point`, or `nil` when that box
    /// spans more than `limit` cells or reaches a pole.
    private func cellKeys(around point: Coordinate, margin: Double, limit: Int) -> [Int64]? {
        guard let span = cellSpan(around: point, margin: margin), span.rows.count * span.columns <= limit else { return nil }
        var keys: [Int64] = []
        keys.reserveCapacity(span.rows.count * span.columns)
        for row in span.rows {
            for offset in 0..<span.columns {
                let column = ((span.firstColumn + offset) % columnsPerTurn + columnsPerTurn) % columnsPerTurn
                keys.append(Int64(row) << 32 | Int64(column))
            }
        }
        return keys
    }
}
