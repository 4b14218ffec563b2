import Foundation

/// Fast distances from one point to nearby ones: an equirectangular frame that scales longitude at
/// the middle latitude of each pair, within 4 cm of the great-circle distance up to ``flatLimit``
/// degrees away, falling back to the haversine formula farther, near the poles and across large
/// longitude spans.
public struct LocalFrame: Sendable {
    /// The frame's origin.
    public let origin: Coordinate
    private let cosLatitude, sinLatitude: Double
    private let usable: Bool

    /// The largest offset in degrees the flat approximation is used for.
    static let flatLimit = 0.2

    /// Creates a frame at `origin`.
    public init(at origin: Coordinate) {
        self.origin = origin
        cosLatitude = cos(origin.latitude * .pi / 180)
        // From the cosine: a square root instead of a second trigonometric call. Its absolute error
        // stays below 1e-8 (largest near the equator), and it only scales small corrections.
        sinLatitude = (1 - cosLatitude * cosLatitude).squareRoot() * (origin.latitude < 0 ? -1 : 1)
        usable = abs(origin.latitude) < 80
    }

    /// Distance in metres from the origin to `point`.
    @inline(__always)
    public func distance(to point: Coordinate) -> Double {
        distance(toLatitude: point.latitude, longitude: point.longitude, within: .infinity)!
    }

    /// Distance in metres from the origin to (`latitude`, `longitude`), or `nil` when it is more than
    /// `limit` metres.
    @inline(__always)
    func distance(toLatitude latitude: Double, longitude: Double, within limit: Double) -> Double? {
        distance(latitudeOffset: latitude - origin.latitude, longitudeOffset: Geodesy.wrapped(longitude - origin.longitude), within: limit)
    }

    /// Distance in metres from the origin to the point `dLat` degrees north and `dLon` degrees east of
    /// it (`dLon` in -180...180), or `nil` when it is more than `limit` metres.
    @inline(__always)
    func distance(latitudeOffset dLat: Double, longitudeOffset dLon: Double, within limit: Double) -> Double? {
        let y = dLat * Geodesy.metresPerDegreeLatitude
        if usable && abs(y) > limit { return nil }
        guard usable, abs(dLat) < Self.flatLimit, abs(dLon) < Self.flatLimit else {
            return Geodesy.distance(origin, Coordinate(normalizingLatitude: origin.latitude + dLat, longitude: origin.longitude + dLon))
        }
        // cos of the middle latitude to second order; the origin's own cos would err by up to 16 m
        // at the flat limit (1 m at 0.05°).
        let half = dLat * (.pi / 360)
        let scale = cosLatitude * (1 - half * half / 2) - sinLatitude * half
        let x = dLon * Geodesy.metresPerDegreeLatitude * scale
        let squared = x * x + y * y
        return squared > limit * limit ? nil : squared.squareRoot()
    }

    /// Signed distance in metres from the origin to the outline of the circle of `radius` metres
    /// around (`latitude`, `longitude`), negative inside, or `nil` when the outline is more than
    /// `margin` metres away outside.
    @inline(__always)
    func outlineDistance(toLatitude latitude: Double, longitude: Double, radius: Double, within margin: Double) -> Double? {
        outlineDistance(
            latitudeOffset: latitude - origin.latitude, longitudeOffset: Geodesy.wrapped(longitude - origin.longitude), radius: radius,
            within: margin)
    }

    /// ``outlineDistance(toLatitude:longitude:radius:within:)`` for a centre `dLat` degrees north and
    /// `dLon` degrees east of the origin (`dLon` in -180...180).
    @inline(__always)
    func outlineDistance(latitudeOffset dLat: Double, longitudeOffset dLon: Double, radius: Double, within margin: Double) -> Double? {
        guard let d = distance(latitudeOffset: dLat, longitudeOffset: dLon, within: margin + radius), d - radius <= margin else {
            return nil
        }
        return d - radius
    }

    /// A lower bound of the cosine of every latitude within `degrees` of the origin's, so that
    /// longitude differences scaled by it never exceed the frame's east-west distances:
    /// cos(|φ| + b) ≥ cos φ·(1 − b²/2) − |sin φ|·b. It is 0 when the span reaches a pole, and near
    /// the poles, where the frame measures great circles that may pass closer to the pole than either end.
    func smallestCosine(within degrees: Double) -> Double {
        guard usable else { return 0 }
        let b = degrees * .pi / 180
        return max(0, cosLatitude * (1 - b * b / 2) - abs(sinLatitude) * b)
    }
}
