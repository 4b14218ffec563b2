import WhereaboutsCore

/// Finds when fixes cross the circles of monitored regions, standing in for the OS region monitor
/// Linux lacks. Whether a fix shows the device inside or outside a circle is decided by the core's
/// ``WhereaboutsCore/TransitionRule`` (hysteresis band, accuracy margin, confirmation of coarse fixes),
/// so gpsd and the engine judge boundaries alike.
///
/// A newly monitored region has no state; the first fix that is evidence about it reports its state
/// (as CoreLocation's `requestState` does). After that, a crossing is reported when the evidence
/// changes: at once for a decisive fix, after a second agreeing fix otherwise. Pure value type.
struct GPSDRegionWatch: Sendable {
    private struct Watched: Sendable {
        let region: MonitoredRegion
        var state: RegionState?
        var candidate: RegionState?
    }

    private var watched: [Watched] = []

    /// Whether no region is monitored.
    var isEmpty: Bool { watched.isEmpty }

    /// Monitors exactly `regions`; a region monitored before with the same centre and radius keeps its state.
    mutating func monitor(_ regions: [MonitoredRegion]) {
        let previous = watched
        watched = regions.map { region in
            previous.first { $0.region == region } ?? Watched(region: region, state: nil, candidate: nil)
        }
    }

    /// The regions whose state `fix` changes, with their new state, in monitoring order.
    mutating func crossings(for fix: Fix) -> [(id: String, state: RegionState)] {
        var changes: [(id: String, state: RegionState)] = []
        for index in watched.indices {
            let region = watched[index].region
            let distance = Geodesy.distance(fix.coordinate, region.center)
            guard
                let evidence = TransitionRule.evidence(
                    distance: distance, accuracy: fix.horizontalAccuracy, radius: region.radius)
            else { continue }
            if evidence == watched[index].state {
                watched[index].candidate = nil
                continue
            }
            let decisive = TransitionRule.isDecisive(
                evidence, signedDistance: distance - region.radius, accuracy: fix.horizontalAccuracy,
                size: region.radius)
            if decisive || watched[index].candidate == evidence {
                watched[index].state = evidence
                watched[index].candidate = nil
                changes.append((region.id, evidence))
            } else {
                watched[index].candidate = evidence
            }
        }
        return changes
    }
}
