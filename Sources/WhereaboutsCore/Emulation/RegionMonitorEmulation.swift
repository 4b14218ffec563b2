import Foundation

/// The OS's region monitoring, as the simulated phone and the gpsd service emulate it (Linux has none):
///
/// - at most ``slotLimit`` regions (20, as on iOS); more are ignored and counted in ``overflows``;
/// - a region under 100 m radius behaves as 100 m, and the device's state in a region flips once a
///   position lies beyond its boundary by max(radius/10, 50 m) (the ``cushion``, ``RegionCushion/iOS``
///   unless told otherwise); the crossing is reported `latency` seconds later (20–180 s on the
///   simulated phone, at once on gpsd);
/// - a newly monitored region finds the device's state from the position at hand when monitoring
///   starts or else from the next one, and reports it when asked to
///   (``MonitoredRegion/reportsState``, CoreLocation's `requestState`).
///
/// It judges positions alone, as the OS does; the core's ``GeofenceEngine`` weighs the crossings it
/// reports against fixes.
public struct RegionMonitorEmulation: Sendable {
    /// How many regions are monitored at once.
    public let slotLimit: Int
    /// How late a circle's state flips.
    public let cushion: RegionCushion
    /// Times more regions than ``slotLimit`` were asked for.
    public private(set) var overflows = 0

    private struct Watched: Sendable {
        let region: MonitoredRegion
        var inside: Bool?
        var deliveries: [(time: Date, state: RegionState)]

        /// Finds the state at `position`, and schedules its report when the region asked for one.
        mutating func settle(at position: Coordinate, time: Date, delay: TimeInterval, cushion: RegionCushion) {
            let isInside = Geodesy.distance(position, region.center) < cushion.effectiveRadius(region.radius)
            inside = isInside
            deliveries = region.reportsState ? [(time.addingTimeInterval(delay), isInside ? .inside : .outside)] : []
        }
    }

    private var watched: [Watched] = []

    /// Creates a monitor of `slotLimit` regions whose states flip `cushion` past their boundaries.
    public init(slotLimit: Int = 20, cushion: RegionCushion = .iOS) {
        self.slotLimit = slotLimit
        self.cushion = cushion
    }

    /// Whether no region is monitored.
    public var isEmpty: Bool { watched.isEmpty }

    /// Monitors exactly `regions` from `time`, replacing the set; a region monitored before, with the
    /// same centre and radius, keeps its state. A new region's state, found at `position` when one is
    /// known, is reported `stateDelay` seconds later if the region asked for it.
    public mutating func monitor(_ regions: [MonitoredRegion], at time: Date, position: Coordinate?, stateDelay: TimeInterval) {
        if regions.count > slotLimit { overflows += 1 }
        let previous = watched
        watched = regions.prefix(slotLimit).map { region in
            if let kept = previous.first(where: {
                $0.region.id == region.id && $0.region.center == region.center && $0.region.radius == region.radius
            }) {
                return kept
            }
            var fresh = Watched(region: region, inside: nil, deliveries: [])
            if let position { fresh.settle(at: position, time: time, delay: stateDelay, cushion: cushion) }
            return fresh
        }
    }

    /// The crossings reported at `time`, after judging `position`: a region's state found (if it had
    /// none, and it asked for it) is reported after `stateDelay`, a crossing after `latency()` seconds.
    public mutating func step(
        at time: Date, position: Coordinate, stateDelay: TimeInterval, latency: () -> TimeInterval
    ) -> [(id: String, state: RegionState)] {
        var reported: [(id: String, state: RegionState)] = []
        for i in watched.indices {
            if watched[i].inside == nil {
                watched[i].settle(at: position, time: time, delay: stateDelay, cushion: cushion)
            } else if let inside = watched[i].inside {
                let d = Geodesy.distance(position, watched[i].region.center)
                if cushion.flips(inside: inside, atDistance: d, radius: watched[i].region.radius) {
                    watched[i].inside = !inside
                    let earliest = watched[i].deliveries.last?.time ?? time
                    let at = max(earliest, time.addingTimeInterval(latency()))
                    watched[i].deliveries.append((at, inside ? .outside : .inside))
                }
            }
            while let next = watched[i].deliveries.first, next.time <= time {
                watched[i].deliveries.removeFirst()
                reported.append((watched[i].region.id, next.state))
            }
        }
        return reported
    }
}
