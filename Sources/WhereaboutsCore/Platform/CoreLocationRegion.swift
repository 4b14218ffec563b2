import Foundation

/// The parameters of a `CLCircularRegion` for one planned OS slot.
public struct CoreLocationRegion: Sendable, Hashable {
    /// `identifier`: the region's id, reported back with each crossing.
    public let identifier: String
    /// Centre latitude in degrees.
    public let latitude: Double
    /// Centre longitude in degrees.
    public let longitude: Double
    /// `radius` in metres, no larger than the device's `maximumRegionMonitoringDistance`.
    public let radius: Double
    /// `notifyOnEntry`: `false` for the refresh region, whose entry means nothing; `true` otherwise.
    public let notifyOnEntry: Bool
    /// `notifyOnExit`: always `true`.
    public let notifyOnExit: Bool
    /// Whether to call `requestState(for:)` once monitoring starts
    /// (``MonitoredRegion/reportsState``).
    public let requestsState: Bool

    /// Creates the parameters; a region read back from the OS has no `requestsState`.
    public init(
        identifier: String, latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        requestsState: Bool = false
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.requestsState = requestsState
    }
}
