import Foundation
import WhereaboutsCore

/// A `CLLocation`'s values as the delegate receives them, before the core's mapping judges them.
public struct ReportedLocation: Sendable, Equatable {
    /// `coordinate.latitude`.
    public var latitude: Double
    /// `coordinate.longitude`.
    public var longitude: Double
    /// `horizontalAccuracy` in metres; negative when the coordinate is invalid.
    public var horizontalAccuracy: Double
    /// `altitude` in metres.
    public var altitude: Double
    /// `verticalAccuracy` in metres; negative when the altitude is invalid.
    public var verticalAccuracy: Double
    /// `speed` in m/s; negative when unknown.
    public var speed: Double
    /// `course` in degrees; negative when unknown.
    public var course: Double
    /// `timestamp`.
    public var timestamp: Date

    /// Creates a location; unknown altitude, speed and course by default.
    public init(
        latitude: Double, longitude: Double, horizontalAccuracy: Double, altitude: Double = 0, verticalAccuracy: Double = -1,
        speed: Double = -1, course: Double = -1, timestamp: Date
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }

    /// The fix the core makes of it (``WhereaboutsCore/Fix/fromCoreLocation(latitude:longitude:horizontalAccuracy:altitude:verticalAccuracy:speed:course:timestamp:source:)``).
    func fix() throws(ValidationError) -> Fix {
        try Fix.fromCoreLocation(
            latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, altitude: altitude,
            verticalAccuracy: verticalAccuracy, speed: speed, course: course, timestamp: timestamp)
    }
}

/// A `CLVisit`'s values.
public struct ReportedVisit: Sendable, Equatable {
    /// `coordinate.latitude`.
    public var latitude: Double
    /// `coordinate.longitude`.
    public var longitude: Double
    /// `horizontalAccuracy` in metres.
    public var horizontalAccuracy: Double
    /// `arrivalDate`; `Date.distantPast` when the arrival was not seen.
    public var arrivalDate: Date
    /// `departureDate`; `Date.distantFuture` while the device is still there.
    public var departureDate: Date

    /// Creates a visit.
    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double, arrivalDate: Date, departureDate: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.arrivalDate = arrivalDate
        self.departureDate = departureDate
    }
}
