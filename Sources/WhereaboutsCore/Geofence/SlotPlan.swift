import Foundation

/// The regions handed to the OS: the nearest ones plus a refresh region around the device.
public struct SlotPlan: Sendable, Equatable {
    /// The regions to monitor, nearest boundary first, refresh region last.
    public let regions: [MonitoredRegion]
    /// The refresh region: a circle around the device reaching the nearest boundary that is not
    /// monitored. Leaving it means the plan is stale.
    public let refresh: MonitoredRegion
    /// Distance in metres from the planning position to the nearest region boundary, if any region exists.
    public let nearestBoundary: Double?

    /// The monitored regions by id.
    var byID: [String: MonitoredRegion] { Dictionary(regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// Whether `point` has left the refresh region, so the slots must be planned again.
    public func isStale(at point: Coordinate) -> Bool {
        Geodesy.distance(point, refresh.center) > refresh.radius
    }
}
