import Foundation

/// One region event in `POST {base}/v1/devices/{device}/events`: `{"id", "regionId", "kind":
/// enter|exit|dwell, "timestamp", "initial"}` plus optional `latitude` and `longitude`. `initial` is
/// `true` for the state found when monitoring started (after each start of tracking), which is not a
/// transition seen happen; a missing `initial` is `false`.
public struct WireEvent: Sendable, Codable, Hashable {
    /// UUID string; a resend is recognised by it.
    public var id: String
    /// The region's id.
    public var regionId: String
    /// `enter`, `exit` or `dwell`.
    public var kind: String
    /// RFC 3339 UTC with milliseconds.
    public var timestamp: String
    /// Where, if known.
    public var latitude: Double?
    /// Where, if known.
    public var longitude: Double?
    /// Whether this is the state found when monitoring started rather than a transition.
    public var initial: Bool

    /// Creates a wire event field by field.
    public init(
        id: String, regionId: String, kind: String, timestamp: String, latitude: Double?, longitude: Double?, initial: Bool = false
    ) {
        self.id = id
        self.regionId = regionId
        self.kind = kind
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.initial = initial
    }

    private enum CodingKeys: String, CodingKey { case id, regionId, kind, timestamp, latitude, longitude, initial }

    /// Decodes an event; a missing `initial` is `false` (a transition).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        regionId = try c.decode(String.self, forKey: .regionId)
        kind = try c.decode(String.self, forKey: .kind)
        timestamp = try c.decode(String.self, forKey: .timestamp)
        latitude = try c.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try c.decodeIfPresent(Double.self, forKey: .longitude)
        initial = try c.decodeIfPresent(Bool.self, forKey: .initial) ?? false
    }

    /// The wire form of a stored event.
    public init(_ record: EventRecord) {
        self.init(
            id: record.id.uuidString.lowercased(), regionId: record.event.regionID, kind: record.event.kind.rawValue,
            timestamp: Timestamp.format(record.event.timestamp), latitude: record.event.fix?.coordinate.latitude,
            longitude: record.event.fix?.coordinate.longitude, initial: record.event.initial)
    }

    /// Validates every field against ``WireLimits``.
    /// - Throws: ``ValidationError`` naming the field, its value, the problem and the fix.
    public func validated(now: Date) throws(ValidationError) -> ReceivedEvent {
        guard let uuid = UUID(uuidString: id) else {
            throw ValidationError(field: "id", value: "\"\(id.prefix(60))\"", problem: "is not a UUID", fix: "send a UUID string")
        }
        try WireLimits.checkRegionID(regionId, field: "regionId")
        guard let kind = RegionEventKind(rawValue: kind) else {
            throw ValidationError(
                field: "kind", value: "\"\(kind.prefix(60))\"", problem: "is not an event kind", fix: "send enter, exit or dwell")
        }
        let date = try WireLimits.time(timestamp, field: "timestamp", now: now)
        if latitude != nil || longitude != nil {
            _ = try Coordinate(latitude: latitude ?? .nan, longitude: longitude ?? .nan)
        }
        return ReceivedEvent(
            id: uuid, regionID: regionId, kind: kind, timestamp: date, latitude: latitude, longitude: longitude, initial: initial)
    }
}
