import Foundation

/// A circular area the app wants to know about: entering it, leaving it, or staying in it.
public struct Region: Sendable, Hashable, Codable, Identifiable {
    /// The app's identifier for the region; unique within a region set.
    public let id: String
    /// The centre of the circle.
    public let center: Coordinate
    /// The radius in metres; greater than zero.
    public let radius: Double
    /// Whether entering the region produces an event.
    public var notifyOnEntry: Bool
    /// Whether leaving the region produces an event.
    public var notifyOnExit: Bool
    /// Seconds spent inside before a dwell event; `nil` means no dwell events.
    public var loiteringDelay: TimeInterval?

    /// Creates a validated region.
    /// - Throws: ``ValidationError`` for an empty id, a radius that is not a positive finite number of
    ///   metres, or a negative loitering delay.
    public init(
        id: String, center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        loiteringDelay: TimeInterval? = nil
    ) throws(ValidationError) {
        guard !id.isEmpty else {
            throw ValidationError(
                field: "id", value: "\"\"", problem: "is empty", fix: "give every region a non-empty identifier")
        }
        guard radius.isFinite, radius > 0 else {
            throw ValidationError(
                field: "radius", value: "\(radius)", problem: "is not a positive number of metres",
                fix: "give the radius in metres, greater than 0")
        }
        if let loiteringDelay, !(loiteringDelay.isFinite && loiteringDelay >= 0) {
            throw ValidationError(
                field: "loiteringDelay", value: "\(loiteringDelay)", problem: "is not a non-negative number of seconds",
                fix: "pass nil for no dwell events, or the seconds to wait inside")
        }
        self.id = id
        self.center = center
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.loiteringDelay = loiteringDelay
    }
}
