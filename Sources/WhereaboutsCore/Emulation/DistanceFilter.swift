import Foundation

/// CoreLocation's `distanceFilter` for standard updates, as the simulated phone and the gpsd service
/// apply it: a position is delivered when it lies at least the filter's distance from the last one
/// delivered; the first after a new configuration is delivered whatever its distance.
public struct DistanceFilter: Sendable, Equatable {
    /// The filter in metres; `nil` delivers every position.
    public private(set) var metres: Double?
    private var lastDelivered: Coordinate?

    /// Creates a filter of `metres` (`nil` for none).
    public init(metres: Double? = nil) { self.metres = metres }

    /// Starts again, with `metres` as the filter: the next position is delivered.
    public mutating func reset(metres: Double?) {
        self.metres = metres
        lastDelivered = nil
    }

    /// Whether `position` is delivered; a delivered one becomes the reference.
    public mutating func admits(_ position: Coordinate) -> Bool {
        if let metres, let last = lastDelivered, Geodesy.distance(last, position) < metres { return false }
        lastDelivered = position
        return true
    }
}
