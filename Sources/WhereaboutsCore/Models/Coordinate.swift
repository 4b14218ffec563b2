/// A point on the WGS 84 ellipsoid, in degrees.
///
/// A `Coordinate` is always valid: the throwing initialiser rejects non-finite values and values
/// outside latitude −90…90 and longitude −180…180.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Latitude in degrees, −90…90, positive north.
    public let latitude: Double
    /// Longitude in degrees, −180…180, positive east.
    public let longitude: Double

    /// Creates a validated coordinate.
    /// - Throws: ``ValidationError`` naming the bad value and the accepted range.
    public init(latitude: Double, longitude: Double) throws(ValidationError) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw ValidationError(
                field: "latitude", value: "\(latitude)",
                problem: "is not a finite number of degrees between -90 and 90",
                fix: "pass the latitude in decimal degrees (WGS 84), north positive")
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw ValidationError(
                field: "longitude", value: "\(longitude)",
                problem: "is not a finite number of degrees between -180 and 180",
                fix: "pass the longitude in decimal degrees (WGS 84), east positive")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate from values the caller has already validated or computed from valid ones,
    /// normalising the longitude into −180…180 and clamping the latitude.
    public init(normalizingLatitude latitude: Double, longitude: Double) {
        self.latitude = min(90, max(-90, latitude))
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        self.longitude = lon
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude))
    }
}
