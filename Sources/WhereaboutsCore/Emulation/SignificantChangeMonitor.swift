import Foundation

/// CoreLocation's significant-change service, as the simulated phone and the gpsd service emulate it:
/// a position as soon as monitoring starts, then one each time the device is at least
/// ``distance`` metres and ``interval`` seconds from the last one reported.
public struct SignificantChangeMonitor: Sendable {
    /// Metres between two reports.
    public static let distance: Double = 500
    /// Seconds between two reports.
    public static let interval: TimeInterval = 300

    /// Whether monitoring is on.
    public private(set) var isOn = false
    private var lastReported: (position: Coordinate, time: Date)?

    /// Creates a monitor, off.
    public init() {}

    /// Turns monitoring on (the next position is reported) or off; turning it on again starts over.
    public mutating func set(on: Bool) {
        if on && !isOn { lastReported = nil }
        isOn = on
    }

    /// Takes a position the OS delivered at `time` without a new observation (its most recent
    /// location, as iOS delivers first when monitoring starts) as the last one reported.
    public mutating func take(_ position: Coordinate, at time: Date) {
        guard isOn else { return }
        lastReported = (position, time)
    }

    /// Whether the device, at `position` at `time`, is due a report; a reported position becomes the
    /// reference.
    public mutating func reports(_ position: Coordinate, at time: Date) -> Bool {
        guard isOn else { return false }
        if let last = lastReported,
            time.timeIntervalSince(last.time) < Self.interval || Geodesy.distance(last.position, position) < Self.distance
        {
            return false
        }
        lastReported = (position, time)
        return true
    }
}
