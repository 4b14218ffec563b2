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
    /// The index slot each region had when planned, in the order of ``regions`` (the refresh region
    /// excluded), so that a refit finds them without looking their ids up; empty when not known.
    /// Plans are equal whatever their slots.
    let slots: [Int32]

    init(regions: [MonitoredRegion], refresh: MonitoredRegion, nearestBoundary: Double?, slots: [Int32] = []) {
        self.regions = regions
        self.refresh = refresh
        self.nearestBoundary = nearestBoundary
        self.slots = slots
    }

    public static func == (lhs: SlotPlan, rhs: SlotPlan) -> Bool {
        lhs.regions == rhs.regions && lhs.refresh == rhs.refresh && lhs.nearestBoundary == rhs.nearestBoundary
    }

    /// The monitored regions by id.
    var byID: [String: MonitoredRegion] { Dictionary(regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// Whether `point` has left the refresh region, so the slots must be planned again.
    public func isStale(at point: Coordinate) -> Bool {
        Geodesy.distance(point, refresh.center) > refresh.radius
    }
}
