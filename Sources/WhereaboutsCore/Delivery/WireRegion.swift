import Foundation

/// A circular region as it travels in a `setRegions` command.
public struct WireRegion: Sendable, Hashable, Codable {
    /// Region identifier.
    public let id: String
    /// Centre latitude in degrees.
    public let latitude: Double
    /// Centre longitude in degrees.
    public let longitude: Double
    /// Radius in metres.
    public let radius: Double

    /// Creates a wire region.
    public init(id: String, latitude: Double, longitude: Double, radius: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// The validated region: an id of 1 to ``WireLimits/regionIDLength`` characters, a valid centre and a
    /// radius within ``WireLimits/radius``.
    /// - Throws: ``ValidationError`` naming the field, its value and the allowed range.
    public func region() throws(ValidationError) -> Region {
        try WireLimits.checkRegionID(id, field: "id")
        try WireLimits.check(radius, field: "radius", in: WireLimits.radius, unit: "m", fix: "give the radius in metres")
        return try Region(id: id, center: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    }
}
