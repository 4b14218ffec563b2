import Foundation

/// A spatial index of regions: a uniform grid of latitude/longitude cells, each listing the regions
/// whose enclosing circle, grown by ``registrationMargin``, overlaps it.
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
    private var discs: [Disc] = []

    /// A region's enclosing circle, packed: what queries read first, contiguous in slot order.
    private struct Disc {
        var latitude: Double
        var longitude: Double
        /// The radius in metres, negated for polygon regions (whose circle only encloses them).
        var signedRadius: Double

        init(_ region: Region) {
            latitude = region.center.latitude
            longitude = region.center.longitude
            if case .circle = region.shape { signedRadius = region.radius } else { signedRadius = -region.radius }
        }

        var radius: Double { abs(signedRadius) }
    }
    private var freeSlots: [Int32] = []
    private var slotByID: [String: Int32] = [:]
    private var cells: [Int64: Cell] = [:]

    /// The regions registered in one grid cell, sorted by latitude, and the largest radius among them
    /// (never lowered on removal), so a query reads only the band of latitudes that can matter.
    private struct Cell {
        var slots: [Int32] = []
        var maxRadius: Float = 0
    }
    private var wide: [Int32] = []
    private let columnsPerTurn: Int

    /// Creates an empty index with cells of `cellDegrees` degrees (0.005° ≈ 560 m of latitude).
    public init(cellDegrees: Double = 0.005) {
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

    /// The radius in metres of the region in `slot` (of its enclosing circle for polygons), without
    /// copying the region.
    @inline(__always)
    public func radius(atSlot slot: Int32) -> Double { discs[Int(slot)].radius }

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
            discs[Int(slot)] = Disc(region)
        } else {
            slot = Int32(slots.count)
            slots.append(region)
            discs.append(Disc(region))
        }
        slotByID[region.id] = slot
        if let keys = cellKeys(around: region.center, margin: region.radius + Self.registrationMargin, limit: Self.maximumCellsPerRegion) {
            let latitude = region.center.latitude
            for key in keys {
                var cell = cells.removeValue(forKey: key) ?? Cell()
                let position = lowerBound(cell.slots, latitude: latitude)
                cell.slots.insert(slot, at: position)
                cell.maxRadius = max(cell.maxRadius, Float(discs[Int(slot)].radius).nextUp)
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
                cells[key]?.slots.removeAll { $0 == slot }
                if cells[key]?.slots.isEmpty == true { cells[key] = nil }
            }
        } else {
            wide.removeAll { $0 == slot }
        }
        return slot
    }

    /// Calls `body` once for every region whose enclosing circle comes within `margin` metres of
    /// `point`, with the distance in metres from `point` to that circle (the flat-earth distance of
    /// ``LocalFrame``, within centimetres over a few kilometres; negative inside) and whether the
    /// region is that circle (for a polygon the distance is only a lower bound of its own).
    @inline(__always)
    public func forEachWithin(_ margin: Double, of point: Coordinate, _ body: (Int32, Double, Bool) -> Void) {
        let measure = CentreDistance(point)
        @inline(__always) func visit(_ slot: Int32) {
            let disc = discs[Int(slot)]
            let r = disc.radius
            guard let d = measure(disc.latitude, disc.longitude, within: margin + r), d - r <= margin else { return }
            body(slot, d - r, disc.signedRadius > 0)
        }
        if margin <= Self.registrationMargin {
            for slot in wide { visit(slot) }
            guard let cell = cells[key(latitude: point.latitude, longitude: point.longitude)] else { return }
            let band = (margin + Double(cell.maxRadius)) / Geodesy.metresPerDegreeLatitude
            var i = lowerBound(cell.slots, latitude: point.latitude - band)
            let top = point.latitude + band
            while i < cell.slots.count {
                let slot = cell.slots[i]
                if discs[Int(slot)].latitude > top { break }
                visit(slot)
                i += 1
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
            for slot in cells[key]?.slots ?? [] where seen.insert(slot).inserted { visit(slot) }
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
        forEachWithin(margin + 1, of: point) { slot, _, _ in found.append(slots[Int(slot)]!) }
        return found
    }

    /// The ids of the regions `point` may be in given `accuracy` metres: those whose outline is at
    /// most `accuracy` metres away (great-circle distance; the flat-earth distance decides where it
    /// is more than half a metre from the limit), sorted.
    public func containing(_ point: Coordinate, accuracy: Double) -> [String] {
        var ids: [String] = []
        forEachWithin(accuracy + 1, of: point) { slot, flatDistance, isCircle in
            let region = slots[Int(slot)]!
            let clear = isCircle && abs(flatDistance - accuracy) > 0.5
            if clear ? flatDistance <= accuracy : region.signedDistance(from: point) <= accuracy { ids.append(region.id) }
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
            forEachBoundaryCandidate(near: point, within: reach) { slot in
                let i = Int(slot)
                let r = discs[i].radius
                guard let d = measure(discs[i].latitude, discs[i].longitude, within: reach + r) else { return }
                guard abs(d - r) <= reach + 1 else { return }
                let boundary = abs(slots[i]!.signedDistance(from: point))
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

    /// Every region registered in the cells under the box of `margin` metres around `point`; may
    /// repeat a region (callers deduplicate).
    private func forEachBoundaryCandidate(near point: Coordinate, within margin: Double, _ body: (Int32) -> Void) {
        guard let keys = cellKeys(around: point, margin: margin, limit: Self.maximumCellsPerQuery) else {
            for (slot, region) in slots.enumerated() where region != nil { body(Int32(slot)) }
            return
        }
        for slot in wide { body(slot) }
        for key in keys {
            guard let cell = cells[key] else { continue }
            let band = (margin + Double(cell.maxRadius)) / Geodesy.metresPerDegreeLatitude
            var i = lowerBound(cell.slots, latitude: point.latitude - band)
            while i < cell.slots.count, discs[Int(cell.slots[i])].latitude <= point.latitude + band {
                body(cell.slots[i])
                i += 1
            }
        }
    }

    /// The first position in `slots` (sorted by latitude) whose region lies at or north of `latitude`.
    @inline(__always)
    private func lowerBound(_ slots: [Int32], latitude: Double) -> Int {
        var low = 0, high = slots.count
        while low < high {
            let mid = (low + high) / 2
            if discs[Int(slots[mid])].latitude < latitude { low = mid + 1 } else { high = mid }
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
