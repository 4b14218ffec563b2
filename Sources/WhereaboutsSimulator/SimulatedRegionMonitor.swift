import Foundation
import WhereaboutsCore

/// The OS region monitor of the simulated phone: at most 20 regions, crossings reported 20–180 s
/// after the truth passes the boundary by more than max(radius/10, 50 m), radii under 100 m
/// behaving as 100 m, and the current state reported 1 s after a region is added (CoreLocation's
/// `requestState`).
struct SimulatedRegionMonitor {
    /// How many regions the OS monitors at once.
    static let slotLimit = 20

    private struct Watched {
        let region: MonitoredRegion
        var inside: Bool
        var deliveries: [(time: Double, state: RegionState)]

        var effectiveRadius: Double { max(region.radius, 100) }
    }

    private var watched: [Watched] = []
    private(set) var overflows = 0

    /// Replaces the monitored set at second `t`.
    mutating func monitor(_ regions: [MonitoredRegion], at t: Double, truth: TruthPath) {
        if regions.count > Self.slotLimit { overflows += 1 }
        let position = truth.position(at: t)
        watched = regions.prefix(Self.slotLimit).map { region in
            if let kept = watched.first(where: { $0.region == region }) { return kept }
            var fresh = Watched(region: region, inside: false, deliveries: [])
            fresh.inside = Geodesy.distance(position, region.center) < fresh.effectiveRadius
            fresh.deliveries = [(t + 1, fresh.inside ? .inside : .outside)]
            return fresh
        }
    }

    /// The crossings delivered in second `t`, after updating every region's OS state from the truth.
    mutating func step(at t: Double, truth: TruthPath, random: inout SeededGenerator) -> [TrackerInput] {
        let position = truth.position(at: t)
        var delivered: [TrackerInput] = []
        for i in watched.indices {
            let r = watched[i].effectiveRadius
            let margin = max(r / 10, 50)
            let d = Geodesy.distance(position, watched[i].region.center)
            if !watched[i].inside && d < r - margin || watched[i].inside && d > r + margin {
                watched[i].inside.toggle()
                let earliest = watched[i].deliveries.last?.time ?? t
                let at = max(earliest, t + random.uniform(20...180).rounded())
                watched[i].deliveries.append((at, watched[i].inside ? .inside : .outside))
            }
            while let next = watched[i].deliveries.first, next.time <= t {
                watched[i].deliveries.removeFirst()
                delivered.append(.regionCrossing(id: watched[i].region.id, state: next.state))
            }
        }
        return delivered
    }
}
