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

    /// A region's enclosing circle as a cell lists it, so a query never reads the region itself to
    /// measure it. The centre is kept as single-precision offsets from the cell's corner: within a
    /// millimetre, since a listed region lies within a few cells.
    private struct Entry {
        var latitudeOffset: Float
        var longitudeOffset: Float
        /// The radius in metres (single precision is exact to a millimetre up to 100 km).
        var radius: Float
        var slot: Int32
        /// Whether the region is this circle (not a polygon it encloses).
        var isCircle: Bool { slot >= 0 }
        /// The region's slot.
        var regionSlot: Int32 { slot >= 0 ? slot : ~slot }

        init(_ region: Region, slot: Int32, corner: (latitude: Double, longitude: Double)) {
            latitudeOffset = Float(region.center.latitude - corner.latitude)
            longitudeOffset = Float(RegionIndex.wrapped(region.center.longitude - corner.longitude))
            radius = Float(region.radius)
            if case .circle = region.shape { self.slot = slot } else { self.slot = ~slot }
        }
    }

    /// A longitude difference brought into -180...180.
    @inline(__always)
    static func wrapped(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
    }

    /// The south-west corner of the cell with `key`.
    @inline(__always)
    private func corner(of key: Int64) -> (latitude: Double, longitude: Double) {
        (Double(key >> 32) * cellDegrees, Double(key & 0xFFFF_FFFF) * cellDegrees)
    }

    private var freeSlots: [Int32] = []
    private var slotByID: [String: Int32] = [:]
    private var cells: [Int64: Cell] = [:]

    /// The regions registered in one grid cell, sorted by latitude, and the largest radius among them
    /// (never lowered on removal), so a query reads only the band of latitudes that can matter.
    private struct Cell {
        var entries: [Entry] = []
        var maxRadius: Float = 0
    }
    private var wide: [Int32] = []
    private let columnsPerTurn: Int

    /// Creates an empty index with cells of `cellDegrees` degrees (0.01° ≈ 1.1 km of latitude).
    public init(cellDegrees: Double = 0.01) {
        self.cellDegrees = cellDegrees
        columnsPerTurn = Int((360 / cellDegrees).rounded())
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

    /// Adds a region, replacing any region with the same id, and returns its slot.
    @discardableResult
    public mutating func insert(_ region: Region) -> Int32 {
        remove(id: region.id)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)] = region
        } else {
            slot = Int32(slots.count)
            slots.append(region)
        }
        slotByID[region.id] = slot
        if let keys = cellKeys(around: region.center, margin: region.radius + Self.registrationMargin, limit: Self.maximumCellsPerRegion) {
            for key in keys {
                let entry = Entry(region, slot: slot, corner: corner(of: key))
                var cell = cells.removeValue(forKey: key) ?? Cell()
                cell.entries.insert(entry, at: Self.lowerBound(cell.entries, offset: entry.latitudeOffset))
                cell.maxRadius = max(cell.maxRadius, entry.radius.nextUp)
                cells[key] = cell
            }
        } else {
            wide.append(slot)
        }
        return slot
    }

    /// Removes the region with the given id and returns the slot it had; does nothing when absent.
    @discardableResult
    public mutating func remove(id: String) -> Int32? {
        guard let slot = slotByID.removeValue(forKey: id), let region = slots[Int(slot)] else { return nil }
        slots[Int(slot)] = nil
        freeSlots.append(slot)
        if let keys = cellKeys(around: region.center, margin: region.radius + Self.registrationMargin, limit: Self.maximumCellsPerRegion) {
            for key in keys {
                cells[key]?.entries.removeAll { $0.regionSlot == slot }
                if cells[key]?.entries.isEmpty == true { cells[key] = nil }
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
        /// Metres from the point to the region's circle (the flat-earth distance of ``LocalFrame``,
        /// within centimetres over a few kilometres; negative inside).
        public let distance: Double
        /// The circle's radius in metres.
        public let radius: Double
        /// Whether the region is that circle; for a polygon the distance is only a lower bound.
        public let isCircle: Bool
    }

    /// Calls `body` once for every region whose enclosing circle comes within `margin` metres of `point`.
    @inline(__always)
    public func forEachWithin(_ margin: Double, of point: Coordinate, _ body: (Candidate) -> Void) {
        let measure = CentreDistance(point)
        @inline(__always) func visit(_ slot: Int32) {
            let region = slots[Int(slot)]!
            let r = region.radius
            guard let d = measure(region.center.latitude, region.center.longitude, within: margin + r), d - r <= margin else { return }
            let isCircle = if case .circle = region.shape { true } else { false }
            body(Candidate(slot: slot, distance: d - r, radius: r, isCircle: isCircle))
        }
        if margin <= Self.registrationMargin {
            for slot in wide { visit(slot) }
            let key = key(latitude: point.latitude, longitude: point.longitude)
            guard let cell = cells[key] else { return }
            scan(cell, key: key, near: point, within: margin, measure) { entry, distance in
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
            for entry in cells[key]?.entries ?? [] where seen.insert(entry.regionSlot).inserted { visit(entry.regionSlot) }
        }
    }

    /// Calls `body` for the entries of `cell` whose circle comes within `margin` metres of `point`,
    /// with the distance to the circle, reading only the band of latitudes that can matter.
    @inline(__always)
    private func scan(
        _ cell: Cell, key: Int64, near point: Coordinate, within margin: Double, _ measure: CentreDistance, _ body: (Entry, Double) -> Void
    ) {
        let corner = corner(of: key)
        let band = (margin + Double(cell.maxRadius)) / Geodesy.metresPerDegreeLatitude
        let pointOffset = point.latitude - corner.latitude
        let top = pointOffset + band
        cell.entries.withUnsafeBufferPointer { entries in
            var i = Self.lowerBound(entries, offset: Float(pointOffset - band).nextDown)
            while i < entries.count {
                let entry = entries[i]
                if Double(entry.latitudeOffset) > top { break }
                let r = Double(entry.radius)
                let latitude = corner.latitude + Double(entry.latitudeOffset), longitude = corner.longitude + Double(entry.longitudeOffset)
                if let d = measure(latitude, longitude, within: margin + r), d - r <= margin { body(entry, d - r) }
                i += 1
            }
        }
    }

    /// Distances from one point to region centres: flat-earth near it, haversine far away or near a pole.
    private struct CentreDistance {
        let latitude, longitude, metresPerDegreeLongitude: Double
        let flat: Bool
        let point: Coordinate

        init(_ point: Coordinate) {
            self.point = point
            latitude = point.latitude
            longitude = point.longitude
            metresPerDegreeLongitude = Geodesy.metresPerDegreeLatitude * cos(point.latitude * .pi / 180)
            flat = abs(point.latitude) < 80
        }

        /// The distance in metres to (lat, lon), or `nil` when it is certainly more than `limit`.
        @inline(__always)
        func callAsFunction(_ lat: Double, _ lon: Double, within limit: Double) -> Double? {
            let dLat = (lat - latitude) * Geodesy.metresPerDegreeLatitude
            if flat && abs(dLat) > limit { return nil }
            var dLon = lon - longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            if flat && abs(dLon) < LocalFrame.flatLimit && abs(lat - latitude) < LocalFrame.flatLimit {
                let x = dLon * metresPerDegreeLongitude
                return (x * x + dLat * dLat).squareRoot()
            }
            return Geodesy.distance(point, Coordinate(normalizingLatitude: lat, longitude: lon))
        }
    }

    /// Every region whose enclosing circle may come within `margin` metres of `point`, each once (a
    /// superset: a metre is added to cover the flat-earth distance; callers compute exact distances).
    public func candidates(near point: Coordinate, within margin: Double) -> [Region] {
        var found: [Region] = []
        forEachWithin(margin + 1, of: point) { found.append(slots[Int($0.slot)]!) }
        return found
    }

    /// The ids of the regions `point` may be in given `accuracy` metres: those whose outline is at
    /// most `accuracy` metres away (great-circle distance; the flat-earth distance decides where it
    /// is more than half a metre from the limit), sorted.
    public func containing(_ point: Coordinate, accuracy: Double) -> [String] {
        var ids: [String] = []
        forEachWithin(accuracy + 1, of: point) { candidate in
            let region = slots[Int(candidate.slot)]!
            let clear = candidate.isCircle && abs(candidate.distance - accuracy) > 0.5
            if clear ? candidate.distance <= accuracy : region.signedDistance(from: point) <= accuracy { ids.append(region.id) }
        }
        return ids.sorted()
    }

    /// The regions whose boundary is nearest to `point`, nearest first, at most `limit` of them, each
    /// with its boundary distance in metres (how far the outline is, inside or outside).
    public func nearestBoundaries(to point: Coordinate, limit: Int) -> [(region: Region, distance: Double)] {
        guard limit > 0, count > 0 else { return [] }
        var reach = 60.0
        let measure = CentreDistance(point)
        while true {
            var found: [(distance: Double, slot: Int32)] = []
            forEachBoundaryCandidate(near: point, within: reach, measure) { slot in
                let region = slots[Int(slot)]!
                let r = region.radius
                guard let d = measure(region.center.latitude, region.center.longitude, within: reach + r) else { return }
                guard abs(d - r) <= reach + 1 else { return }
                let boundary = abs(region.signedDistance(from: point))
                if boundary <= reach { found.append((boundary, slot)) }
            }
            found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.slot < $1.slot }
            var unique: [(region: Region, distance: Double)] = []
            var last: Int32 = -1
            for entry in found where entry.slot != last {
                last = entry.slot
                unique.append((slots[Int(entry.slot)]!, entry.distance))
            }
            if unique.count >= limit || unique.count == count || reach > Geodesy.earthRadius * .pi {
                unique.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.region.id < $1.region.id }
                return Array(unique.prefix(limit))
            }
            reach *= min(4, max(1.5, (Double(limit) / Double(max(unique.count, 1))).squareRoot() * 1.3))
        }
    }

    /// Every region registered in the cells under the box of `margin` metres around `point` whose
    /// circle may come within `margin` of it; may repeat a region (callers deduplicate).
    private func forEachBoundaryCandidate(
        near point: Coordinate, within margin: Double, _ measure: CentreDistance, _ body: (Int32) -> Void
    ) {
        guard let keys = cellKeys(around: point, margin: margin, limit: Self.maximumCellsPerQuery) else {
            for (slot, region) in slots.enumerated() where region != nil { body(Int32(slot)) }
            return
        }
        for slot in wide { body(slot) }
        for key in keys {
            guard let cell = cells[key] else { continue }
            scan(cell, key: key, near: point, within: margin, measure) { entry, _ in body(entry.regionSlot) }
        }
    }

    /// The first position in `entries` (sorted by latitude) at or north of the latitude `offset`.
    @inline(__always)
    private static func lowerBound<C: RandomAccessCollection<Entry>>(_ entries: C, offset: Float) -> Int where C.Index == Int {
        var low = entries.startIndex, high = entries.endIndex
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].latitudeOffset < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    @inline(__always)
    private func key(latitude: Double, longitude: Double) -> Int64 {
        let row = Int64((latitude / cellDegrees).rounded(.down))
        var column = Int((longitude / cellDegrees).rounded(.down)) % columnsPerTurn
        if column < 0 { column += columnsPerTurn }
        return row << 32 | Int64(column)
    }

    /// The grid cells covering the box of `margin` metres around `point`, or `nil` when that box
    /// spans more than `limit` cells or reaches a pole.
    private func cellKeys(around point: Coordinate, margin: Double, limit: Int) -> [Int64]? {
        let dLat = margin / Geodesy.metresPerDegreeLatitude
        let south = point.latitude - dLat, north = point.latitude + dLat
        guard south > -89.5, north < 89.5 else { return nil }
        let widestLatitude = max(abs(south), abs(north)) * .pi / 180
        let dLon = dLat / cos(widestLatitude)
        let firstRow = Int((south / cellDegrees).rounded(.down)), lastRow = Int((north / cellDegrees).rounded(.down))
        let first = Int(((point.longitude - dLon) / cellDegrees).rounded(.down))
        let last = Int(((point.longitude + dLon) / cellDegrees).rounded(.down))
        let columnCount = min(last - first + 1, columnsPerTurn)
        guard (lastRow - firstRow + 1) * columnCount <= limit else { return nil }
        var keys: [Int64] = []
        keys.reserveCapacity((lastRow - firstRow + 1) * columnCount)
        for row in firstRow...lastRow {
            for offset in 0..<columnCount {
                let column = ((first + offset) % columnsPerTurn + columnsPerTurn) % columnsPerTurn
                keys.append(Int64(row) << 32 | Int64(column))
            }
        }
        return keys
    }
}
