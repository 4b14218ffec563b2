import Foundation

/// A region handed to the OS for monitoring.
public struct MonitoredRegion: Sendable, Equatable, Hashable {
    /// The identifier the OS will report crossings with.
    public let id: String
    /// Centre of the circle.
    public let center: Coordinate
    /// Radius in metres.
    public let radius: Double

    /// Creates a monitored region.
    public init(id: String, center: Coordinate, radius: Double) {
        self.id = id
        self.center = center
        self.radius = radius
    }

    /// The identifier of the refresh region around the device.
    public static let refreshRegionID = "whereabouts.refresh"
}
