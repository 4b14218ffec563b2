import Foundation
import WhereaboutsCore

/// The ground truth of a scenario: a trace with still pads before and after it, linearly
/// interpolated at every whole second.
public struct TruthPath: Sendable {
    /// The first second of the scenario (the start of the leading pad), epoch seconds.
    public let start: Double
    /// The device's position at each second from ``start``.
    public let positions: [Coordinate]
    /// The device's speed in metres per second over the second ending at each position (the first
    /// takes the second's), 0 during the pads.
    public let speeds: [Double]

    /// The last second of the scenario, epoch seconds.
    public var end: Double { start + Double(positions.count - 1) }

    /// Builds the path from trace points sorted by time, holding the first point for `pad` seconds
    /// before and the last point for `pad` seconds after.
    /// - Precondition: `points` is not empty and its times do not decrease.
    public init(trace points: [TracePoint], pad: Double) {
        precondition(!points.isEmpty, "a truth path needs at least one trace point")
        let first = points[0].time.rounded(.down)
        let last = points[points.count - 1].time.rounded(.up)
        let padSeconds = max(0, pad.rounded())
        start = first - padSeconds
        let count = Int(last - first + 2 * padSeconds) + 1
        var positions: [Coordinate] = []
        positions.reserveCapacity(count)
        var segment = 0
        for i in 0..<count {
            let t = start + Double(i)
            if t <= points[0].time {
                positions.append(points[0].coordinate)
                continue
            }
            while segment + 1 < points.count && points[segment + 1].time < t { segment += 1 }
            if segment + 1 >= points.count {
                positions.append(points[points.count - 1].coordinate)
                continue
            }
            let a = points[segment]
            let b = points[segment + 1]
            let span = b.time - a.time
            let fraction = span > 0 ? (t - a.time) / span : 1
            positions.append(Geodesy.interpolate(a.coordinate, b.coordinate, fraction: fraction))
        }
        self.positions = positions
        var speeds = [0.0]
        speeds.reserveCapacity(count)
        for i in 1..<max(count, 1) { speeds.append(Geodesy.distance(positions[i - 1], positions[i])) }
        if speeds.count > 1 { speeds[0] = speeds[1] }
        self.speeds = speeds
    }

    /// The position at epoch second `t`, clamped to the scenario.
    public func position(at t: Double) -> Coordinate {
        positions[index(at: t)]
    }

    /// The speed in metres per second at epoch second `t`, clamped to the scenario.
    public func speed(at t: Double) -> Double {
        speeds[index(at: t)]
    }

    private func index(at t: Double) -> Int {
        min(positions.count - 1, max(0, Int((t - start).rounded(.down))))
    }
}
