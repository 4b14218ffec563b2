import Foundation
import WhereaboutsCore

/// Synthetic regions and tracks for benchmarks: deterministic for a seed, no recorded data needed.
public enum SyntheticCity {
    /// The centre of the synthetic city (Munich).
    public static let center = try! Coordinate(latitude: 48.137, longitude: 11.575)

    /// `count` circular regions with radii of 50–500 m spread evenly over a square of `side` metres.
    public static func regions(count: Int, side: Double = 40_000, seed: UInt64) -> [Region] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            let point = randomPoint(side: side, using: &generator)
            return try! Region(id: "r\(i)", center: point, radius: Double.random(in: 50...500, using: &generator))
        }
    }

    /// `count` GPS fixes one second apart of a device wandering through the square at about 10 m/s.
    public static func track(count: Int, side: Double = 40_000, start: Date, seed: UInt64) -> [Fix] {
        var generator = SeededGenerator(seed: seed)
        var position = randomPoint(side: side / 2, using: &generator)
        var heading = Double.random(in: 0..<360, using: &generator)
        return (0..<count).map { i in
            heading = (heading + Double.random(in: -15...15, using: &generator) + 360).truncatingRemainder(dividingBy: 360)
            if Geodesy.distance(position, center) > side / 2 { heading = Geodesy.bearing(from: position, to: center) }
            position = Geodesy.destination(from: position, distance: 10, bearing: heading)
            return try! Fix(
                coordinate: position, horizontalAccuracy: Double.random(in: 5...15, using: &generator), speed: 10,
                course: heading, timestamp: start.addingTimeInterval(Double(i)), source: .gps)
        }
    }

    private static func randomPoint(side: Double, using generator: inout SeededGenerator) -> Coordinate {
        let north = Double.random(in: -side / 2...side / 2, using: &generator)
        let east = Double.random(in: -side / 2...side / 2, using: &generator)
        let shifted = Geodesy.destination(from: center, distance: abs(north), bearing: north < 0 ? 180 : 0)
        return Geodesy.destination(from: shifted, distance: abs(east), bearing: east < 0 ? 270 : 90)
    }
}
