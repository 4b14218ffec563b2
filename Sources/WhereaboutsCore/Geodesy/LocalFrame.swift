import Foundation

/// Fast distances from one point to nearby ones: an equirectangular frame at that point, exact to
/// within a few centimetres over a few kilometres, falling back to the haversine formula far away,
/// near the poles and across large longitude spans.
public struct LocalFrame: Sendable {
    /// The frame's origin.
    public let origin: Coordinate
    private let metresPerDegreeLongitude: Double
    private let usable: Bool

    /// The largest offset in degrees the flat approximation is used for.
    static let flatLimit = 0.2

    /// Creates a frame at `origin`.
    public init(at origin: Coordinate) {
        self.origin = origin
        metresPerDegreeLongitude = Geodesy.metresPerDegreeLatitude * cos(origin.latitude * .pi / 180)
        usable = abs(origin.latitude) < 80
    }

    /// Distance in metres from the origin to `point`.
    @inline(__always)
    public func distance(to point: Coordinate) -> Double {
        let dLat = point.latitude - origin.latitude
        var dLon = point.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        guard usable, abs(dLat) < Self.flatLimit, abs(dLon) < Self.flatLimit else {
            return Geodesy.distance(origin, point)
        }
        let y = dLat * Geodesy.metresPerDegreeLatitude
        let x = dLon * metresPerDegreeLongitude
        return (x * x + y * y).squareRoot()
    }

    /// Signed distance in metres from the origin to `region`'s outline: negative inside.
    @inline(__always)
    public func signedDistance(to region: Region) -> Double {
        if case .circle = region.shape { return distance(to: region.center) - region.radius }
        return region.signedDistance(from: origin)
    }
}
