import Foundation

/// A stay the OS's visit monitoring reported (CoreLocation's `CLVisit`): where, and when the device
/// arrived and left, each when known. An arrival comes some minutes after the device settled at a
/// place; a departure some minutes after it left.
public struct Visit: Sendable, Hashable {
    /// The position of the stay, timestamped at the arrival when known, else at the departure.
    public let fix: Fix
    /// When the device arrived, or `nil` when it is not known.
    public let arrival: Date?
    /// When the device left, or `nil` while it is still there (or it is not known).
    public let departure: Date?

    /// Creates a visit.
    public init(fix: Fix, arrival: Date?, departure: Date?) {
        self.fix = fix
        self.arrival = arrival
        self.departure = departure
    }

    /// Seconds the device stayed, when both ends are known.
    public var dwell: TimeInterval? {
        guard let arrival, let departure else { return nil }
        return departure.timeIntervalSince(arrival)
    }
}
