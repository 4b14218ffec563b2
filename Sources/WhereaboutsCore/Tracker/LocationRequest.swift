import Foundation

/// The location service configuration the Tracker wants.
public struct LocationRequest: Sendable, Equatable {
    /// Standard (continuous) updates, or `nil` for off.
    public var standard: StandardUpdates?
    /// Significant-location-change monitoring on or off.
    public var significantChange: Bool
    /// Visit monitoring (arrivals at and departures from places where the device stays) on or off.
    public var visits: Bool
    /// Motion-activity updates (still, walking, cycling, in a vehicle) on or off.
    public var motionActivity: Bool

    /// Creates a request.
    public init(standard: StandardUpdates?, significantChange: Bool, visits: Bool = false, motionActivity: Bool = false) {
        self.standard = standard
        self.significantChange = significantChange
        self.visits = visits
        self.motionActivity = motionActivity
    }

    /// Everything off.
    public static let off = LocationRequest(standard: nil, significantChange: false)
}
