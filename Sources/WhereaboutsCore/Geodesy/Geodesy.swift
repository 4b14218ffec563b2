import Foundation

/// Distances, bearings and destinations on the Earth, treated as a sphere of the WGS 84 mean radius.
///
/// The spherical model is within 0.6 % of the ellipsoid everywhere (0.56 % north–south at the equator), well inside GPS noise
/// for geofencing, and it is exact about the antimeridian and the poles because it works on angles,
/// not on raw longitude differences.
public enum Geodesy {
    /// The mean Earth radius in metres (IUGG R1).
    public static let earthRadius: Double = 6_371_008.8

    /// Great-circle distance in metres between two coordinates (haversine formula).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180
        let φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let sinΔφ = sin(Δφ / 2)
        let sinΔλ = sin(Δλ / 2)
        let h = sinΔφ * sinΔφ + cos(φ1) * cos(φ2) * sinΔλ * sinΔλ
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// Initial bearing in degrees (0..<360, clockwise from true north) of the great circle from `a` to `b`.
    ///
    /// From a pole every direction is south (or north); the formula then returns the bearing along
    /// the meridian of `b`, which is the convention of most libraries.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180
        let φ2 = b.latitude * .pi / 180
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let θ = atan2(y, x) * 180 / .pi
        let normalised = (θ + 360).truncatingRemainder(dividingBy: 360)
        return normalised == 360 ? 0 : normalised
    }

    /// The point reached by travelling `distance` metres from `start` along the great circle with
    /// initial `bearing` degrees.
    public static func destination(from start: Coordinate, distance: Double, bearing: Double) -> Coordinate {
        let δ = distance / earthRadius
        let θ = bearing * .pi / 180
        let φ1 = start.latitude * .pi / 180
        let λ1 = start.longitude * .pi / 180
        let sinφ2 = sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ)
        let φ2 = asin(min(1, max(-1, sinφ2)))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sinφ2)
        return Coordinate(normalizingLatitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }

    /// The point a fraction `t` (0…1) of the way from `a` to `b` along the great circle.
    public static func interpolate(_ a: Coordinate, _ b: Coordinate, fraction t: Double) -> Coordinate {
        let d = distance(a, b)
        if d < 1e-6 { return a }
        return destination(from: a, distance: d * t, bearing: bearing(from: a, to: b))
    }

    /// A longitude difference brought into -180...180 (from within -540...540).
    @inline(__always)
    static func wrapped(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
    }

    /// Metres per degree of latitude (constant on the sphere).
    public static let metresPerDegreeLatitude: Double = earthRadius * .pi / 180
}
