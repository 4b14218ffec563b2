import Foundation

/// A region handed to the OS for monitoring.
public struct MonitoredRegion: Sendable, Equatable, Hashable {
    /// The identifier the OS will report crossings with.
    public let id: String
    /// Centre of the circle.
    public let center: Coordinate
    /// Radius in metres.
    public let radius: Double
    /// Whether the OS is asked for the device's state in the circle when it starts monitoring it
    /// (CoreLocation's `requestState(for:)`). The slot planner asks only where the engine does not
    /// know the region's state: a circle resized for the OS's cushion (``RegionCushion``) lies a
    /// hysteresis band off the region's boundary, so its state at that moment says nothing about
    /// the region; only its crossings do.
    public let reportsState: Bool

    /// Creates a monitored region.
    public init(id: String, center: Coordinate, radius: Double, reportsState: Bool = true) {
        self.id = id
        self.center = center
        self.radius = radius
        self.reportsState = reportsState
    }

    /// The identifier of the refresh region around the device.
    public static let refreshRegionID = "whereabouts.refresh"
}
