import Foundation

/// A spatial index of circular regions: a uniform grid of latitude/longitude cells, each listing the
/// regions whose circle overlaps it.
///
/// Adding and removing a region touches only its own cells. Regions too large for the grid (or that
/// reach a pole) live in a short list that every query checks.
public struct RegionIndex: Sendable {
    /// Cell size in degrees of latitude and longitude.
    public let cellDegrees: Double
    private var slots: [Region?] = []
    private var freeSlots: [Int] = []
    private var slotByID: [String: Int] = [:]
    private var cells: [Int64: [Int32]] = [:]
    private var wide: Set<Int> = []
    private static let maximumCellsPerRegion = 64
    private static let maximumCellsPerQuery = 10_000

    /// Creates an empty index with cells of `cellDegrees` degrees (0.01° ≈ 1.1 km).
    public init(cellDegrees: Double = 0.01) {
        self.cellDegrees = cellDegrees
    }

    /// The number of regions in the index.
    public var count: Int { slotByID.count }

    /// All regions, sorted by id.
    public var regions: [Region] { slotByID.keys.sorted().map { slots[slotByID[$0]!]! } }

    /// The region with the given id, if present.
    public subscript(id: String) -> Region? { slotByID[id].flatMap { slots[$0] } }

    /// Adds a region, replacing any region with the same id.
    public mutating func insert(_ region: Region) {
        remove(id: region.id)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = region
        } else {
            slot = slots.count
            slots.append(region)
        }
        slotByID[region.id] = slot
        guard let keys = cellKeys(around: region.center, margin: region.radius, limit: Self.maximumCellsPerRegion) else {
            wide.insert(slot)
            return
        }
        for key in keys { cells[key, default: []].append(Int32(slot)) }
    }

    /// Removes the region with the given id; does nothing when it is absent.
    public mutating func remove(id: String) {
        guard let slot = slotByID.removeValue(forKey: id), let region = slots[slot] else { return }
        slots[slot] = nil
        freeSlots.append(slot)
        if wide.remove(slot) != nil { return }
        for key in cellKeys(around: region.center, margin: region.radius, limit: Self.maximumCellsPerRegion) ?? [] {
            cells[key]?.removeAll { $0 == Int32(slot) }
            if cells[key]?.isEmpty == true { cells[key] = nil }
        }
    }

    /// Every region whose circle may come within `margin` metres of `point`, each once, in no
    /// particular order. Callers compute exact distances themselves.
    public func candidates(near point: Coordinate, within margin: Double) -> [Region] {
        guard let keys = cellKeys(around: point, margin: margin, limit: Self.maximumCellsPerQuery) else {
            return slots.compactMap { $0 }
        }
        var seen = Set<Int32>()
        var found: [Region] = []
        for key in keys {
            for slot in cells[key] ?? [] where seen.insert(slot).inserted {
                found.append(slots[Int(slot)]!)
            }
        }
        for slot in wide { found.append(slots[slot]!) }
        return found
    }

    /// The regions whose boundary is nearest to `point`, nearest first, at most `limit` of them,
    /// each with its boundary distance in metres (distance to the centre minus the radius, as an
    /// absolute value: inside or outside, how far the boundary is).
    public func nearestBoundaries(to point: Coordinate, limit: Int) -> [(region: Region, distance: Double)] {
        guard limit > 0, count > 0 else { return [] }
        var reach = 1000.0
        while true {
            let exhaustive = reach >= Geodesy.earthRadius * .pi
            var found: [(region: Region, distance: Double)] = []
            for region in exhaustive ? slots.compactMap({ $0 }) : candidates(near: point, within: reach) {
                let d = abs(Geodesy.distance(point, region.center) - region.radius)
                if exhaustive || d <= reach { found.append((region, d)) }
            }
            if found.count >= limit || exhaustive || found.count == count {
                found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.region.id < $1.region.id }
                return Array(found.prefix(limit))
            }
            reach *= 4
        }
    }

    /// The grid cells covering the box of `margin` metres around `point`, or `nil` when that box
    /// spans more than `limit` cells or reaches a pole.
    private func cellKeys(around point: Coordinate, margin: Double, limit: Int) -> [Int64]? {
        let dLat = margin / Geodesy.metresPerDegreeLatitude
        let south = point.latitude - dLat, north = point.latitude + dLat
        guard south > -89.5, north < 89.5 else { return nil }
        let widestLatitude = max(abs(south), abs(north)) * .pi / 180
        let dLon = dLat / cos(widestLatitude)
        let rows = Int((south / cellDegrees).rounded(.down))...Int((north / cellDegrees).rounded(.down))
        let columnsPerTurn = Int((360 / cellDegrees).rounded())
        let first = Int(((point.longitude - dLon) / cellDegrees).rounded(.down))
        let last = Int(((point.longitude + dLon) / cellDegrees).rounded(.down))
        let columnCount = min(last - first + 1, columnsPerTurn)
        guard rows.count * columnCount <= limit else { return nil }
        var keys: [Int64] = []
        keys.reserveCapacity(rows.count * columnCount)
        for row in rows {
            for offset in 0..<columnCount {
                let column = ((first + offset) % columnsPerTurn + columnsPerTurn) % columnsPerTurn
                keys.append(Int64(row) << 32 | Int64(column))
            }
        }
        return keys
    }
}
