import Foundation

/// Chooses which regions the OS monitors, given its slot limit.
public enum SlotPlanner {
    /// Plans `slots` OS slots at `position`: the `slots − 1` regions whose boundary is nearest, and
    /// a refresh region centred on `position` whose radius reaches the nearest boundary left out,
    /// clamped to `minimumRefresh…maximumRefresh` metres (the OS is unreliable under ~100 m).
    ///
    /// - Precondition: `slots` ≥ 1.
    public static func plan(
        _ index: RegionIndex, at position: Coordinate, slots: Int, minimumRefresh: Double, maximumRefresh: Double
    ) -> SlotPlan {
        precondition(slots >= 1, "a slot plan needs at least the refresh slot")
        let nearest = index.nearestBoundaries(to: position, limit: slots)
        let monitored = nearest.prefix(slots - 1)
        let nextBoundary = nearest.count == slots ? nearest[slots - 1].distance : maximumRefresh
        let radius = min(maximumRefresh, max(minimumRefresh, nextBoundary))
        let refresh = MonitoredRegion(id: MonitoredRegion.refreshRegionID, center: position, radius: radius)
        let regions = monitored.map { MonitoredRegion(id: $0.region.id, center: $0.region.center, radius: $0.region.radius) }
        return SlotPlan(regions: regions + [refresh], refresh: refresh, nearestBoundary: nearest.first?.distance)
    }
}
