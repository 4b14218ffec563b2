import Foundation

/// One location in the Whereabouts batch API (`POST {base}/v1/devices/{device}/locations`), shared by
/// the device's uploader and the companion server.
///
/// `{"id": UUID, "timestamp": RFC 3339 UTC with milliseconds, "latitude", "longitude", "accuracy"}` plus
/// optional `altitude`, `speed`, `course`, `trigger` and `dwell` (seconds).
public struct WireLocation: Sendable, Hashable, Codable {
    /// The record's UUID string.
    public var id: String
    /// RFC 3339 UTC timestamp with milliseconds.
    public var timestamp: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Horizontal accuracy in metres.
    public var accuracy: Double
    /// Altitude in metres, if known.
    public var altitude: Double?
    /// Speed in metres per second, if known.
    public var speed: Double?
    /// Course in degrees, if known.
    public var course: Double?
    /// Why the position was recorded (`policy`, `region`, `request`).
    public var trigger: String?
    /// Seconds the device stayed there.
    public var dwell: Double?

    /// Creates a wire location field by field (for other wire formats, such as OwnTracks, on their way in).
    public init(
        id: String, timestamp: String, latitude: Double, longitude: Double, accuracy: Double, altitude: Double? = nil,
        speed: Double? = nil, course: Double? = nil, trigger: String? = nil, dwell: Double? = nil
    ) {
        self.id = id
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.trigger = trigger
        self.dwell = dwell
    }

    /// The wire form of a stored record.
    public init(_ record: LocationRecord) {
        id = record.id.uuidString.lowercased()
        timestamp = Timestamp.format(record.fix.timestamp)
        latitude = record.fix.coordinate.latitude
        longitude = record.fix.coordinate.longitude
        accuracy = record.fix.horizontalAccuracy
        altitude = record.fix.altitude
        speed = record.fix.speed
        course = record.fix.course
        trigger = record.trigger.rawValue
        dwell = record.dwell > 0 ? record.dwell : nil
    }

    /// Validates every field against ``WireLimits`` and returns the record.
    /// - Throws: ``ValidationError`` naming the field, its value, the problem (with the allowed range) and the fix.
    public func validated(now: Date) throws(ValidationError) -> LocationRecord {
        guard let uuid = UUID(uuidString: id) else {
            throw ValidationError(
                field: "id", value: "\"\(id.prefix(60))\"", problem: "is not a UUID", fix: "send a UUID string such as 6f1c…-…")
        }
        let date = try WireLimits.time(timestamp, field: "timestamp", now: now)
        if let trigger, RecordTrigger(rawValue: trigger) == nil {
            throw ValidationError(
                field: "trigger", value: "\"\(trigger.prefix(60))\"", problem: "is not a trigger",
                fix: "send policy, region or request, or leave it out")
        }
        try WireLimits.check(
            accuracy, field: "accuracy", in: WireLimits.accuracy, unit: "m", fix: "send the 68 % confidence radius in metres")
        if let altitude {
            try WireLimits.check(
                altitude, field: "altitude", in: WireLimits.altitude, unit: "m", fix: "send metres above sea level, or leave it out")
        }
        if let speed {
            try WireLimits.check(speed, field: "speed", in: WireLimits.speed, unit: "m/s", fix: "send metres per second, or leave it out")
        }
        if let dwell {
            try WireLimits.check(
                dwell, field: "dwell", in: WireLimits.dwell, unit: "s", fix: "send the seconds spent there, or leave it out")
        }
        let fix = try Fix(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: accuracy,
            altitude: altitude, speed: speed, course: course, timestamp: date, source: .unknown)
        return LocationRecord(id: uuid, fix: fix, trigger: trigger.flatMap(RecordTrigger.init) ?? .policy, dwell: dwell ?? 0)
    }
}
