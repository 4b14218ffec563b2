import Foundation

/// A position as the story app's JavaScript sees it: `{id, latitude, longitude, timestamp}`, the
/// timestamp in integer milliseconds since 1970.
public struct LocationPoint: Sendable, Hashable, Codable {
    /// The identifier: a record's UUID in lower case, or the refresh region's id for the fence.
    public var id: String
    /// Latitude in degrees, −90…90.
    public var latitude: Double
    /// Longitude in degrees, −180…180.
    public var longitude: Double
    /// When the position was measured (encoded as JavaScript milliseconds).
    public var timestamp: Date

    /// Creates a point.
    public init(id: String, latitude: Double, longitude: Double, timestamp: Date) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
    }

    /// The id of a newest location that was not recorded (the mode's policy or its accuracy kept it
    /// out of the store).
    public static let unrecordedID = "unrecorded"

    /// The point of a fix, under `id`.
    public init(id: String, fix: Fix) {
        self.init(id: id, latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude, timestamp: fix.timestamp)
    }

    /// The point of a stored record, identified by its UUID in lower case (as every upload sends it).
    public init(record: LocationRecord) {
        self.init(id: record.id.uuidString.lowercased(), fix: record.fix)
    }

    enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, timestamp
    }

    /// Decodes a point whose timestamp is in JavaScript milliseconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        latitude = try c.decode(Double.self, forKey: .latitude)
        longitude = try c.decode(Double.self, forKey: .longitude)
        timestamp = JavaScriptTime.date(try c.decode(Int64.self, forKey: .timestamp))
    }

    /// Encodes the point with its timestamp in JavaScript milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(JavaScriptTime.milliseconds(timestamp), forKey: .timestamp)
    }
}
