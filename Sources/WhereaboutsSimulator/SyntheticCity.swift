import Foundation
import WhereaboutsCore

/// Synthetic regions and tracks for benchmarks: deterministic for a seed, no recorded data needed.
public enum SyntheticCity {
    /// The centre of the synthetic city (Munich).
    public static let center = try! Coordinate(latitude: 48.137, longitude: 11.575)

    /// How regions are spread.
    public enum Layout: String, Sendable, CaseIterable {
        /// Evenly over the whole square.
        case uniform
        /// In 2 000 clusters (σ 400 m) placed evenly over the square, like shops along high streets.
        case clustered
    }

    /// `count` circular regions with radii in `radii` metres spread over a square of `side` metres.
    public static func regions(
        count: Int, side: Double = 40_000, radii: ClosedRange<Double> = 50...500, layout: Layout = .uniform, seed: UInt64
    ) -> [Region] {
        var generator = SeededGenerator(seed: seed)
        let clusters = clusterCenters(side: side)
        return (0..<count).map { i in
            let point = layout == .uniform ? randomPoint(side: side, using: &generator) : near(clusters, using: &generator)
            return try! Region(id: "r\(i)", center: point, radius: generator.uniform(radii))
        }
    }

    /// `count` fixes at random places of the square (half of them near clusters for the clustered
    /// layout), 80 % GPS-grade (5–15 m) and 20 % Wi-Fi-grade (30–65 m), one second apart.
    public static func fixes(count: Int, side: Double, layout: Layout, start: Date, seed: UInt64) -> [Fix] {
        var generator = SeededGenerator(seed: seed)
        let clusters = clusterCenters(side: side)
        return (0..<count).map { i in
            let clustered = layout == .clustered && i % 2 == 0
            let point = clustered ? near(clusters, using: &generator) : randomPoint(side: side, using: &generator)
            let accuracy = generator.uniform(0...1) < 0.8 ? generator.uniform(5...15) : generator.uniform(30...65)
            return try! Fix(
                coordinate: point, horizontalAccuracy: accuracy, timestamp: start.addingTimeInterval(Double(i)), source: .gps)
        }
    }

    /// `count` GPS fixes one second apart of a device wandering through the square at about 10 m/s.
    public static func track(count: Int, side: Double = 40_000, start: Date, seed: UInt64) -> [Fix] {
        var generator = SeededGenerator(seed: seed)
        var position = randomPoint(side: side / 2, using: &generator)
        var heading = generator.uniform(0...359.999)
        return (0..<count).map { i in
            heading = (heading + generator.uniform(-15...15) + 360).truncatingRemainder(dividingBy: 360)
            if Geodesy.distance(position, center) > side / 2 { heading = Geodesy.bearing(from: position, to: center) }
            position = Geodesy.destination(from: position, distance: 10, bearing: heading)
            return try! Fix(
                coordinate: position, horizontalAccuracy: generator.uniform(5...15), speed: 10,
                course: heading, timestamp: start.addingTimeInterval(Double(i)), source: .gps)
        }
    }

    /// The cluster centres of the clustered layout: the same for regions and fixes.
    private static func clusterCenters(side: Double) -> [Coordinate] {
        var generator = SeededGenerator(seed: 0xC1_05_7E)
        return (0..<2000).map { _ in randomPoint(side: side, using: &generator) }
    }

    private static func near(_ clusters: [Coordinate], using generator: inout SeededGenerator) -> Coordinate {
        let cluster = clusters[Int(generator.next() % UInt64(clusters.count))]
        let north = generator.gaussian(sigma: 400)
        let east = generator.gaussian(sigma: 400)
        return offset(cluster, north: north, east: east)
    }

    private static func randomPoint(side: Double, using generator: inout SeededGenerator) -> Coordinate {
        offset(center, north: generator.uniform(-side / 2...side / 2), east: generator.uniform(-side / 2...side / 2))
    }

    private static func offset(_ point: Coordinate, north: Double, east: Double) -> Coordinate {
        let shifted = Geodesy.destination(from: point, distance: abs(north), bearing: north < 0 ? 180 : 0)
        return Geodesy.destination(from: shifted, distance: abs(east), bearing: east < 0 ? 270 : 90)
    }
}
