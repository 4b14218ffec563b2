import Foundation

extension PlatformAuthorization {
    /// Maps CoreLocation's authorization onto the platform-neutral one.
    ///
    /// - `notDetermined` (0): can prompt.
    /// - `restricted` (1), `denied` (2): cannot prompt; only Settings (or, when restricted, the
    ///   device's manager) can change it.
    /// - `authorizedAlways` (3): Always; ``provisional`` when `provisional` is `true`. Core Location
    ///   reports `authorizedAlways` while Always is provisional (the app called
    ///   `requestAlwaysAuthorization()` while *not determined* and the user chose Allow While Using),
    ///   and no API tells the two apart, so the caller says which. Whereabouts itself never creates
    ///   that state: its coordinator asks for When In Use first, and a later
    ///   `requestAlwaysAuthorization()` shows the Always prompt at once (Apple,
    ///   "requestAlwaysAuthorization()": "If the user grants When In Use permission after your app
    ///   calls requestWhenInUseAuthorization(), then calling requestAlwaysAuthorization() immediately
    ///   prompts the user"). Cannot prompt either way.
    /// - `authorizedWhenInUse` (4): can prompt for Always unless `alwaysPromptUsed`, because "Core
    ///   Location limits calls to requestAlwaysAuthorization(). After your app calls this method,
    ///   further calls have no effect" (same page).
    ///
    /// ``reducedAccuracy`` is `true` when `accuracyAuthorization` is `reducedAccuracy` (1) and location
    /// is allowed; while it is not, the accuracy does not matter and is reported `false`.
    ///
    /// - Parameters:
    ///   - coreLocationStatus: `CLLocationManager.authorizationStatus.rawValue` (`CLAuthorizationStatus`, `Int32`).
    ///   - accuracyAuthorization: `CLLocationManager.accuracyAuthorization.rawValue` (`CLAccuracyAuthorization`, `Int`).
    ///   - provisional: whether an Always status is provisional (see above).
    ///   - alwaysPromptUsed: whether the app has already called `requestAlwaysAuthorization()` on this
    ///     install; the engine knows it as `permissions.background?.requestedAt != nil`.
    /// - Throws: ``ValidationError`` for a raw value CoreLocation does not define.
    public init(
        coreLocationStatus: Int32, accuracyAuthorization: Int, provisional: Bool = false, alwaysPromptUsed: Bool = false
    ) throws(ValidationError) {
        let status: Status
        let canPrompt: Bool
        switch coreLocationStatus {
        case CoreLocationConstants.authorizationNotDetermined: (status, canPrompt) = (.notDetermined, true)
        case CoreLocationConstants.authorizationRestricted: (status, canPrompt) = (.restricted, false)
        case CoreLocationConstants.authorizationDenied: (status, canPrompt) = (.denied, false)
        case CoreLocationConstants.authorizationAlways: (status, canPrompt) = (.always, false)
        case CoreLocationConstants.authorizationWhenInUse: (status, canPrompt) = (.whenInUse, !alwaysPromptUsed)
        default:
            throw ValidationError(
                field: "CLAuthorizationStatus", value: "\(coreLocationStatus)",
                problem: "is not a status CoreLocation defines (0 not determined … 4 when in use)",
                fix: "pass CLLocationManager.authorizationStatus.rawValue; a new status needs a new case in this mapping")
        }
        let reduced: Bool
        switch accuracyAuthorization {
        case CoreLocationConstants.fullAccuracy: reduced = false
        case CoreLocationConstants.reducedAccuracy: reduced = true
        default:
            throw ValidationError(
                field: "CLAccuracyAuthorization", value: "\(accuracyAuthorization)",
                problem: "is not an accuracy authorization CoreLocation defines (0 full, 1 reduced)",
                fix: "pass CLLocationManager.accuracyAuthorization.rawValue")
        }
        let allowed = status == .whenInUse || status == .always
        self.init(status: status, reducedAccuracy: reduced && allowed, provisional: provisional && status == .always, canPrompt: canPrompt)
    }
}

extension RegionState {
    /// Maps a `CLRegionState` raw value (`Int`): inside (1) and outside (2) map to their cases;
    /// unknown (0) gives `nil`, since it says nothing about the device. Any other value also gives
    /// `nil`: `CLRegionState` is `@frozen` with exactly these three cases, so Swift code cannot
    /// produce another.
    public init?(coreLocationRegionState raw: Int) {
        switch raw {
        case CoreLocationConstants.regionStateInside: self = .inside
        case CoreLocationConstants.regionStateOutside: self = .outside
        default: return nil
        }
    }
}

extension Fix {
    /// Builds a fix from a `CLLocation`'s fields, applying CoreLocation's conventions for unknown
    /// values (Apple's `CLLocation` reference, developer.apple.com/documentation/corelocation/cllocation):
    /// - `horizontalAccuracy` negative: "A negative value indicates that the latitude and longitude are
    ///   invalid", so the location is rejected (thrown), as is a non-finite accuracy;
    /// - `verticalAccuracy` zero or negative: "altitude and ellipsoidalAltitude values are invalid", so
    ///   the altitude is `nil` (also when the altitude is not finite);
    /// - `speed` negative: "A negative value indicates an invalid speed", so `nil`;
    /// - `course` negative: invalid, so `nil`; a course of 360° or more is wrapped into 0..<360.
    ///
    /// The source is `source`, `.unknown` by default: CoreLocation fuses GPS, Wi-Fi and cell positions
    /// and does not say which produced a location, and an accuracy-based guess would be wrong where
    /// they overlap (Wi-Fi fixes of 10–65 m look like GPS ones). Nothing in the core depends on it.
    ///
    /// - Parameters:
    ///   - latitude: `coordinate.latitude`, degrees.
    ///   - longitude: `coordinate.longitude`, degrees.
    ///   - horizontalAccuracy: metres.
    ///   - altitude: metres above mean sea level.
    ///   - verticalAccuracy: metres.
    ///   - speed: metres per second.
    ///   - course: degrees clockwise from true north.
    ///   - timestamp: `CLLocation.timestamp`.
    ///   - source: what produced the location, when the caller knows.
    /// - Throws: ``ValidationError`` naming `horizontalAccuracy` for an invalid location, or
    ///   `latitude`/`longitude` for a coordinate outside the WGS 84 ranges (such as
    ///   `kCLLocationCoordinate2DInvalid`).
    public static func fromCoreLocation(
        latitude: Double, longitude: Double, horizontalAccuracy: Double, altitude: Double, verticalAccuracy: Double,
        speed: Double, course: Double, timestamp: Date, source: FixSource = .unknown
    ) throws(ValidationError) -> Fix {
        guard horizontalAccuracy.isFinite, horizontalAccuracy >= 0 else {
            throw ValidationError(
                field: "horizontalAccuracy", value: "\(horizontalAccuracy)",
                problem: "is negative or not a number, which is how CoreLocation marks a location whose latitude and longitude are invalid",
                fix: "drop this CLLocation and wait for the next one")
        }
        let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        let knownAltitude = verticalAccuracy > 0 && altitude.isFinite ? altitude : nil
        let knownSpeed = speed.isFinite && speed >= 0 ? speed : nil
        let knownCourse = course.isFinite && course >= 0 ? course.truncatingRemainder(dividingBy: 360) : nil
        return try Fix(
            coordinate: coordinate, horizontalAccuracy: horizontalAccuracy, altitude: knownAltitude, speed: knownSpeed,
            course: knownCourse, timestamp: timestamp, source: source)
    }
}

extension Visit {
    /// Builds a visit from a `CLVisit`'s fields. An `arrivalDate` at or before `Date.distantPast` means
    /// the arrival is unknown, and a `departureDate` at or after `Date.distantFuture` means the device
    /// has not left yet (Apple, "CLVisit.arrivalDate": "When the visit object does not include arrival
    /// information, this property is set to the date returned by the distantPast method"; "CLVisit":
    /// "when the user arrives at a location, the system may send an event with only an arrival time",
    /// whose `departureDate` is then `distantFuture`, the symmetric convention).
    ///
    /// - Parameters:
    ///   - latitude: `coordinate.latitude`, degrees.
    ///   - longitude: `coordinate.longitude`, degrees.
    ///   - horizontalAccuracy: metres; negative means the coordinate is invalid.
    ///   - arrivalDate: `CLVisit.arrivalDate`.
    ///   - departureDate: `CLVisit.departureDate`.
    /// - Throws: ``ValidationError`` for an invalid accuracy or coordinate, for a visit with neither
    ///   end known, or for a departure before the arrival.
    public static func fromCoreLocation(
        latitude: Double, longitude: Double, horizontalAccuracy: Double, arrivalDate: Date, departureDate: Date
    ) throws(ValidationError) -> Visit {
        let arrival = arrivalDate <= Date.distantPast ? nil : arrivalDate
        let departure = departureDate >= Date.distantFuture ? nil : departureDate
        guard let timestamp = arrival ?? departure else {
            throw ValidationError(
                field: "CLVisit", value: "arrivalDate distantPast, departureDate distantFuture",
                problem: "has neither an arrival nor a departure time, so the stay cannot be placed in time",
                fix: "drop this visit; CoreLocation reports the arrival or the departure with the next one")
        }
        if let arrival, let departure, departure < arrival {
            throw ValidationError(
                field: "departureDate", value: "\(departure)", problem: "is before the arrival date \(arrival)",
                fix: "pass CLVisit.arrivalDate and CLVisit.departureDate unchanged, in that order")
        }
        guard horizontalAccuracy.isFinite, horizontalAccuracy >= 0 else {
            throw ValidationError(
                field: "horizontalAccuracy", value: "\(horizontalAccuracy)",
                problem: "is negative or not a number, so the visit's coordinate is invalid",
                fix: "drop this visit")
        }
        let fix = try Fix(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: horizontalAccuracy, timestamp: timestamp)
        return Visit(fix: fix, arrival: arrival, departure: departure)
    }
}
