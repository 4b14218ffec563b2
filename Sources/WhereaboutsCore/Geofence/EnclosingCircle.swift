import Foundation

/// The smallest circle enclosing a set of points, for handing a polygon region to the OS.
public enum EnclosingCircle {
    /// The smallest circle around `points`, computed in an azimuthal projection about their mean
    /// (Welzl's incremental algorithm, in the given order, so the result is deterministic), then
    /// widened so that every point lies within it by great-circle distance.
    /// - Precondition: `points` is not empty.
    public static func smallest(around points: [Coordinate]) -> (center: Coordinate, radius: Double) {
        precondition(!points.isEmpty, "an enclosing circle needs at least one point")
        let origin = mean(points)
        let planar = points.map { point -> (Double, Double) in
            let d = Geodesy.distance(origin, point)
            let θ = Geodesy.bearing(from: origin, to: point) * .pi / 180
            return (d * sin(θ), d * cos(θ))
        }
        var c = planar[0]
        var r = 0.0
        func contains(_ p: (Double, Double)) -> Bool { hypot(p.0 - c.0, p.1 - c.1) <= r * (1 + 1e-12) + 1e-9 }
        for i in planar.indices where !contains(planar[i]) {
            c = planar[i]
            r = 0
            for j in 0..<i where !contains(planar[j]) {
                c = ((planar[i].0 + planar[j].0) / 2, (planar[i].1 + planar[j].1) / 2)
                r = hypot(planar[i].0 - c.0, planar[i].1 - c.1)
                for k in 0..<j where !contains(planar[k]) {
                    (c, r) = circumcircle(planar[i], planar[j], planar[k])
                }
            }
        }
        let distance = hypot(c.0, c.1)
        let bearing = atan2(c.0, c.1) * 180 / .pi
        let center = Geodesy.destination(from: origin, distance: distance, bearing: (bearing + 360).truncatingRemainder(dividingBy: 360))
        let radius = points.map { Geodesy.distance(center, $0) }.max() ?? 0
        return (center, radius)
    }

    private static func mean(_ points: [Coordinate]) -> Coordinate {
        var x = 0.0
        var y = 0.0
        var z = 0.0
        for p in points {
            let φ = p.latitude * .pi / 180
            let λ = p.longitude * .pi / 180
            x += cos(φ) * cos(λ)
            y += cos(φ) * sin(λ)
            z += sin(φ)
        }
        return Coordinate(normalizingLatitude: atan2(z, hypot(x, y)) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
    }

    private static func circumcircle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> ((Double, Double), Double) {
        let d = 2 * (a.0 * (b.1 - c.1) + b.0 * (c.1 - a.1) + c.0 * (a.1 - b.1))
        guard abs(d) > 1e-12 else {
            let pairs = [(a, b), (a, c), (b, c)].max { hypot($0.0.0 - $0.1.0, $0.0.1 - $0.1.1) < hypot($1.0.0 - $1.1.0, $1.0.1 - $1.1.1) }!
            let center = ((pairs.0.0 + pairs.1.0) / 2, (pairs.0.1 + pairs.1.1) / 2)
            return (center, hypot(pairs.0.0 - center.0, pairs.0.1 - center.1))
        }
        let a2 = a.0 * a.0 + a.1 * a.1
        let b2 = b.0 * b.0 + b.1 * b.1
        let c2 = c.0 * c.0 + c.1 * c.1
        let ux = (a2 * (b.1 - c.1) + b2 * (c.1 - a.1) + c2 * (a.1 - b.1)) / d
        let uy = (a2 * (c.0 - b.0) + b2 * (a.0 - c.0) + c2 * (b.0 - a.0)) / d
        return ((ux, uy), hypot(a.0 - ux, a.1 - uy))
    }
}
