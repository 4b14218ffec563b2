import Foundation
import WhereaboutsCore

/// How far the recorded track is from the truth (`evaluation.md`, "Track error").
///
/// The records are interpolated linearly in time (a record with dwell d stands at its point from t to
/// t + d), held before the first and after the last, and compared with the truth every 10 s.
public struct TrackError: Sendable, Equatable {
    /// Seconds between samples.
    public static let step: Double = 10

    /// Distance in metres at each sample; empty when nothing was recorded.
    public let samples: [Double]

    /// Compares `fixes` with `truth`.
    public init(fixes: [LocationRecord], truth: TruthPath) {
        var knots: [(t: Double, position: Coordinate)] = []
        for stored in fixes.sorted(by: { $0.fix.timestamp < $1.fix.timestamp }) {
            let t = stored.fix.timestamp.timeIntervalSince1970
            knots.append((t, stored.fix.coordinate))
            if stored.dwell > 0 { knots.append((t + stored.dwell, stored.fix.coordinate)) }
        }
        guard !knots.isEmpty else {
            samples = []
            return
        }
        var samples: [Double] = []
        var k = 0
        var t = truth.start
        while t <= truth.end {
            while k + 1 < knots.count && knots[k + 1].t <= t { k += 1 }
            let estimate: Coordinate
            if t <= knots[0].t {
                estimate = knots[0].position
            } else if k + 1 >= knots.count {
                estimate = knots[knots.count - 1].position
            } else {
                let a = knots[k]
                let b = knots[k + 1]
                let span = b.t - a.t
                estimate = span > 0 ? Geodesy.interpolate(a.position, b.position, fraction: (t - a.t) / span) : b.position
            }
            samples.append(Geodesy.distance(estimate, truth.position(at: t)))
            t += Self.step
        }
        self.samples = samples
    }

    /// Mean distance in metres, or `nil` when nothing was recorded.
    public var mean: Double? { samples.isEmpty ? nil : samples.reduce(0, +) / Double(samples.count) }
    /// 95th percentile distance in metres, or `nil` when nothing was recorded.
    public var p95: Double? { percentile(samples, 95) }
}
