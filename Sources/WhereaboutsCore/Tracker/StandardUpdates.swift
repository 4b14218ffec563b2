import Foundation

/// Continuous location updates.
public struct StandardUpdates: Sendable, Equatable {
    /// The requested accuracy.
    public var accuracy: LocationAccuracy
    /// Minimum movement in metres between delivered fixes; `nil` delivers every fix.
    public var distanceFilter: Double?

    /// Creates a configuration.
    public init(accuracy: LocationAccuracy, distanceFilter: Double?) {
        self.accuracy = accuracy
        self.distanceFilter = distanceFilter
    }
}
