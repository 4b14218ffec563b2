import Foundation
import WhereaboutsCore

@testable import WhereaboutsSimulator

enum SimFixtures {
    static let start = 1_700_000_000.0
    static let home = try! Coordinate(latitude: 48.137, longitude: 11.575)

    /// A path: still for `still` seconds, then east at `speed` m/s for `moving` seconds.
    static func path(still: Int = 0, speed: Double = 10, moving: Int, pad: Double = 0) -> TruthPath {
        var points: [TracePoint] = []
        for i in 0...(still + moving) {
            let metres = Double(max(0, i - still)) * speed
            points.append(TracePoint(coordinate: Geodesy.destination(from: home, distance: metres, bearing: 90), time: start + Double(i)))
        }
        return TruthPath(trace: points, pad: pad)
    }

    /// Steps the location service over `seconds` and returns what it produced with the timeline.
    static func run(
        _ service: inout SimulatedLocationService, over truth: TruthPath, from: Double = start, seconds: Int, seed: UInt64 = 1
    ) -> (fixes: [Fix], oneShots: [Fix], significant: [Fix], timeline: [TimelineRecord]) {
        var random = SeededGenerator(seed: seed)
        var timeline: [TimelineRecord] = []
        var out: ([Fix], [Fix], [Fix]) = ([], [], [])
        for t in 0..<seconds {
            let produced = service.step(at: from + Double(t), truth: truth, random: &random, timeline: &timeline)
            if let f = produced.standard { out.0.append(f) }
            if let f = produced.oneShot { out.1.append(f) }
            if let f = produced.significant { out.2.append(f) }
        }
        return (out.0, out.1, out.2, timeline)
    }
}
