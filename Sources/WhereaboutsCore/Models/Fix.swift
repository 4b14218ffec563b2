import Foundation

/// One position report: where the device was, how sure the source is, and when.
public struct Fix: Sendable, Hashable, Codable {
    /// The position.
    public var coordinate: Coordinate
    /// Radius of 68 % confidence, in metres; never negative.
    public var horizontalAccuracy: Double
    /// When the position was measured.
    public var timestamp: Date
    /// What produced the fix.
    public var source: FixSource
    /// Altitude above mean sea level in metres, if known.
    public var altitude: Double?
    /// Ground speed in metres per second, if known; never negative.
    public var speed: Double?
    /// Course over ground in degrees clockwise from true north (0..<360), if known.
    public var course: Double?

    /// Creates a validated fix.
    /// - Throws: ``ValidationError`` for a negative or non-finite accuracy, a negative speed or a course
    ///   outside 0..<360.
    public init(
        coordinate: Coordinate, horizontalAccuracy: Double, altitude: Double? = nil, speed: Double? = nil,
        course: Double? = nil, timestamp: Date, source: FixSource = .unknown
    ) throws(ValidationError) {
        guard horizontalAccuracy.isFinite, horizontalAccuracy >= 0 else {
            throw ValidationError(
                field: "horizontalAccuracy", value: "\(horizontalAccuracy)",
                problem: "is not a non-negative number of metres",
                fix: "pass the 68 % confidence radius in metres, or drop the fix if the source gives none")
        }
        if let altitude, !altitude.isFinite {
            throw ValidationError(
                field: "altitude", value: "\(altitude)", problem: "is not a finite number of metres",
                fix: "pass nil when the altitude is unknown")
        }
        if let speed, !(speed.isFinite && speed >= 0) {
            throw ValidationError(
                field: "speed", value: "\(speed)", problem: "is not a non-negative number of metres per second",
                fix: "pass nil when the speed is unknown (CoreLocation reports -1 for that)")
        }
        if let course, !(course.isFinite && course >= 0 && course < 360) {
            throw ValidationError(
                field: "course", value: "\(course)", problem: "is not a number of degrees in 0..<360",
                fix: "pass nil when the course is unknown (CoreLocation reports -1 for that)")
        }
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
        self.source = source
    }

    /// Decodes a fix and validates it as the initialiser does.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            coordinate: c.decode(Coordinate.self, forKey: .coordinate),
            horizontalAccuracy: c.decode(Double.self, forKey: .horizontalAccuracy),
            altitude: c.decodeIfPresent(Double.self, forKey: .altitude), speed: c.decodeIfPresent(Double.self, forKey: .speed),
            course: c.decodeIfPresent(Double.self, forKey: .course), timestamp: c.decode(Date.self, forKey: .timestamp),
            source: c.decode(FixSource.self, forKey: .source))
    }
}
