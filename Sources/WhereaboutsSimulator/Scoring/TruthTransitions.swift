import Foundation
import WhereaboutsCore

/// The truth transitions of `evaluation.md`: hysteresis h = min(25 m, r/4), enter within r − h,
/// exit beyond r + h, visits under 30 s optional.
public enum TruthTransitions {
    /// Visits shorter than this many seconds are optional.
    public static let shortVisit: Double = 30

    /// Every truth event of every region, sorted by time then region id.
    public static func compute(truth: TruthPath, regions: [Region]) -> [TruthEvent] {
        let bounds = PathBounds(truth.positions)
        var events: [TruthEvent] = []
        for region in regions {
            let h = min(25, region.radius / 4)
            guard bounds.mayComeWithin(region.radius + h, of: region.center) else { continue }
            events += transitions(of: region, hysteresis: h, truth: truth)
        }
        return events.sorted { ($0.time, $0.regionID) < ($1.time, $1.regionID) }
    }

    private static func transitions(of region: Region, hysteresis h: Double, truth: TruthPath) -> [TruthEvent] {
        var inside = Geodesy.distance(truth.positions[0], region.center) <= region.radius
        var raw: [(kind: RegionEventKind, time: Double)] = []
        for (i, position) in truth.positions.enumerated() {
            let d = Geodesy.distance(position, region.center)
            if !inside && d <= region.radius - h {
                inside = true
                raw.append((.enter, truth.start + Double(i)))
            } else if inside && d > region.radius + h {
                inside = false
                raw.append((.exit, truth.start + Double(i)))
            }
        }
        var optional = Array(repeating: false, count: raw.count)
        for i in raw.indices where raw[i].kind == .enter && i + 1 < raw.count {
            if raw[i + 1].time - raw[i].time < shortVisit {
                optional[i] = true
                optional[i + 1] = true
            }
        }
        return raw.indices.map {
            TruthEvent(regionID: region.id, kind: raw[$0].kind, time: raw[$0].time, optional: optional[$0])
        }
    }
}

/// A latitude/longitude box around a path, to skip regions it never comes near.
struct PathBounds {
    private let south, north, west, east: Double
    private let crossesAntimeridian: Bool

    init(_ positions: [Coordinate]) {
        south = positions.map(\.latitude).min() ?? 0
        north = positions.map(\.latitude).max() ?? 0
        west = positions.map(\.longitude).min() ?? 0
        east = positions.map(\.longitude).max() ?? 0
        crossesAntimeridian = east - west > 180
    }

    /// Whether any point of the path may lie within `distance` metres of `point`.
    func mayComeWithin(_ distance: Double, of point: Coordinate) -> Bool {
        if crossesAntimeridian { return true }
        let dLat = distance / Geodesy.metresPerDegreeLatitude
        let widest = min(89.9, max(abs(south), abs(north)) + dLat) * .pi / 180
        let dLon = dLat / cos(widest)
        return point.latitude >= south - dLat && point.latitude <= north + dLat
            && point.longitude >= west - dLon && point.longitude <= east + dLon
    }
}
