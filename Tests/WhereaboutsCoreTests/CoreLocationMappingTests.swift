import Foundation
import Testing
import WhereaboutsCore

@Suite("CoreLocation mapping")
struct CoreLocationMappingTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    // MARK: Authorization

    struct AuthorizationCase: Sendable, CustomTestStringConvertible {
        let raw: Int32
        let accuracy: Int
        var provisional = false
        var alwaysPromptUsed = false
        let expected: PlatformAuthorization
        var testDescription: String { "status \(raw), accuracy \(accuracy), provisional \(provisional), always asked \(alwaysPromptUsed)" }
    }

    static let authorizationCases: [AuthorizationCase] = [
        AuthorizationCase(raw: 0, accuracy: 0, expected: PlatformAuthorization(status: .notDetermined, canPrompt: true)),
        AuthorizationCase(raw: 1, accuracy: 0, expected: PlatformAuthorization(status: .restricted, canPrompt: false)),
        AuthorizationCase(raw: 2, accuracy: 0, expected: PlatformAuthorization(status: .denied, canPrompt: false)),
        AuthorizationCase(raw: 3, accuracy: 0, expected: PlatformAuthorization(status: .always, canPrompt: false)),
        AuthorizationCase(raw: 4, accuracy: 0, expected: PlatformAuthorization(status: .whenInUse, canPrompt: true)),
        AuthorizationCase(
            raw: 4, accuracy: 0, alwaysPromptUsed: true, expected: PlatformAuthorization(status: .whenInUse, canPrompt: false)),
        AuthorizationCase(
            raw: 3, accuracy: 0, provisional: true, expected: PlatformAuthorization(status: .always, provisional: true, canPrompt: false)),
        AuthorizationCase(raw: 4, accuracy: 0, provisional: true, expected: PlatformAuthorization(status: .whenInUse, canPrompt: true)),
        AuthorizationCase(
            raw: 4, accuracy: 1, expected: PlatformAuthorization(status: .whenInUse, reducedAccuracy: true, canPrompt: true)),
        AuthorizationCase(raw: 3, accuracy: 1, expected: PlatformAuthorization(status: .always, reducedAccuracy: true, canPrompt: false)),
        AuthorizationCase(raw: 2, accuracy: 1, expected: PlatformAuthorization(status: .denied, reducedAccuracy: false, canPrompt: false)),
        AuthorizationCase(raw: 0, accuracy: 1, expected: PlatformAuthorization(status: .notDetermined, canPrompt: true)),
    ]

    @Test("CLAuthorizationStatus and CLAccuracyAuthorization raw values", arguments: authorizationCases)
    func authorization(_ c: AuthorizationCase) throws {
        let mapped = try PlatformAuthorization(
            coreLocationStatus: c.raw, accuracyAuthorization: c.accuracy, provisional: c.provisional, alwaysPromptUsed: c.alwaysPromptUsed)
        #expect(mapped == c.expected)
    }

    @Test("the documented CLAuthorizationStatus raw values")
    func statusConstants() {
        #expect(CoreLocationConstants.authorizationNotDetermined == 0)
        #expect(CoreLocationConstants.authorizationRestricted == 1)
        #expect(CoreLocationConstants.authorizationDenied == 2)
        #expect(CoreLocationConstants.authorizationAlways == 3)
        #expect(CoreLocationConstants.authorizationWhenInUse == 4)
    }

    @Test("unknown raw values are errors naming the value and the fix", arguments: [(Int32(5), 0), (-1, 0), (4, 2), (0, -1)])
    func unknownAuthorization(status: Int32, accuracy: Int) {
        #expect(throws: ValidationError.self) {
            try PlatformAuthorization(coreLocationStatus: status, accuracyAuthorization: accuracy)
        }
        do {
            _ = try PlatformAuthorization(coreLocationStatus: status, accuracyAuthorization: accuracy)
        } catch {
            #expect(error.field == (status == 5 || status == -1 ? "CLAuthorizationStatus" : "CLAccuracyAuthorization"))
            #expect(error.description.contains(status == 5 || status == -1 ? "\(status)" : "\(accuracy)"))
            #expect(!error.fix.isEmpty)
        }
    }

    @Test("a mapped authorization drives the coordinator: the one Always prompt, then Settings")
    func mappedIntoCoordinator() throws {
        var coordinator = PermissionCoordinator()
        let whenInUse = try PlatformAuthorization(coreLocationStatus: 4, accuracyAuthorization: 0)
        #expect(coordinator.handle(.becameActive(whenInUse), now: Self.now).last == .requestAuthorization(.background))
        let afterPrompt = try PlatformAuthorization(
            coreLocationStatus: 4, accuracyAuthorization: 0, alwaysPromptUsed: coordinator.permissions.background?.requestedAt != nil)
        _ = coordinator.handle(.authorizationChanged(afterPrompt), now: Self.now.addingTimeInterval(3))
        let later = Self.now.addingTimeInterval(3 * 3600)
        #expect(!coordinator.handle(.becameActive(afterPrompt), now: later).contains(.requestAuthorization(.background)))
        #expect(coordinator.handle(.request(.background), now: later).last == .openSettings)
        #expect(coordinator.handle(.request(.background), now: later.addingTimeInterval(60)).isEmpty, "Settings at most once per back-off")
        #expect(coordinator.problem?.code == .backgroundDenied)
    }

    // MARK: Region state

    @Test(
        "CLRegionState: unknown 0 → nil, inside 1, outside 2, anything else → nil",
        arguments: [
            (0, RegionState?.none), (1, .inside), (2, .outside), (3, nil), (-1, nil),
        ])
    func regionState(raw: Int, expected: RegionState?) {
        #expect(RegionState(coreLocationRegionState: raw) == expected)
    }

    // MARK: Fixes

    static func clFix(
        latitude: Double = 48.137, longitude: Double = 11.575, horizontalAccuracy: Double = 8, altitude: Double = 519,
        verticalAccuracy: Double = 4, speed: Double = 1.4, course: Double = 87.5
    ) throws(ValidationError) -> Fix {
        try Fix.fromCoreLocation(
            latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, altitude: altitude,
            verticalAccuracy: verticalAccuracy, speed: speed, course: course, timestamp: now)
    }

    @Test("a valid CLLocation keeps every field, source unknown")
    func validFix() throws {
        let fix = try Self.clFix()
        #expect(
            fix
                == (try Fix(
                    coordinate: Coordinate(latitude: 48.137, longitude: 11.575), horizontalAccuracy: 8, altitude: 519, speed: 1.4,
                    course: 87.5,
                    timestamp: Self.now, source: .unknown)))
        #expect(try Self.clFix(horizontalAccuracy: 0).horizontalAccuracy == 0)
        let significant = try Fix.fromCoreLocation(
            latitude: 1, longitude: 2, horizontalAccuracy: 500, altitude: 0, verticalAccuracy: -1, speed: -1, course: -1,
            timestamp: Self.now,
            source: .significantChange)
        #expect(significant.source == .significantChange)
    }

    @Test("negative or non-finite horizontal accuracy: the location is invalid", arguments: [-1.0, -0.5, .nan, .infinity])
    func invalidFix(accuracy: Double) {
        #expect {
            try Self.clFix(horizontalAccuracy: accuracy)
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == "horizontalAccuracy" && error.problem.contains("invalid") && error.fix.contains("drop")
        }
    }

    @Test(
        "kCLLocationCoordinate2DInvalid and out-of-range coordinates are rejected by name",
        arguments: [
            (-180.0, -180.0, "latitude"), (91.0, 0.0, "latitude"), (0.0, 181.0, "longitude"), (.nan, 0.0, "latitude"),
        ])
    func invalidCoordinate(latitude: Double, longitude: Double, field: String) {
        #expect {
            try Self.clFix(latitude: latitude, longitude: longitude)
        } throws: { error in
            (error as? ValidationError)?.field == field
        }
    }

    @Test("negative speed and course are unknown; zero or negative vertical accuracy means no altitude")
    func unknownParts() throws {
        let fix = try Self.clFix(verticalAccuracy: -1, speed: -1, course: -1)
        #expect(fix.altitude == nil)
        #expect(fix.speed == nil)
        #expect(fix.course == nil)
        #expect(try Self.clFix(verticalAccuracy: 0).altitude == nil)
        #expect(try Self.clFix(altitude: .nan).altitude == nil)
        #expect(try Self.clFix(speed: 0).speed == 0)
        #expect(try Self.clFix(speed: .nan).speed == nil)
        #expect(try Self.clFix(course: 0).course == 0)
        #expect(try Self.clFix(course: 360).course == 0)
        #expect(try Self.clFix(course: 359.9).course == 359.9)
    }

    // MARK: Visits

    @Test("a visit with both ends: fix at the arrival, dwell = departure − arrival")
    func completeVisit() throws {
        let visit = try Visit.fromCoreLocation(
            latitude: 48.137, longitude: 11.575, horizontalAccuracy: 35, arrivalDate: Self.now,
            departureDate: Self.now.addingTimeInterval(5400))
        #expect(visit.fix.timestamp == Self.now)
        #expect(visit.fix.horizontalAccuracy == 35)
        #expect(visit.fix.coordinate == (try Coordinate(latitude: 48.137, longitude: 11.575)))
        #expect(visit.arrival == Self.now)
        #expect(visit.departure == Self.now.addingTimeInterval(5400))
        #expect(visit.dwell == 5400)
    }

    @Test("an arrival event: departure distantFuture is unknown, no dwell yet")
    func arrivalVisit() throws {
        let visit = try Visit.fromCoreLocation(
            latitude: 48.137, longitude: 11.575, horizontalAccuracy: 35, arrivalDate: Self.now, departureDate: .distantFuture)
        #expect(visit.departure == nil)
        #expect(visit.dwell == nil)
        #expect(visit.fix.timestamp == Self.now)
    }

    @Test("a departure without arrival: arrival distantPast is unknown, the fix is at the departure")
    func departureVisit() throws {
        let visit = try Visit.fromCoreLocation(
            latitude: 48.137, longitude: 11.575, horizontalAccuracy: 35, arrivalDate: .distantPast, departureDate: Self.now)
        #expect(visit.arrival == nil)
        #expect(visit.dwell == nil)
        #expect(visit.fix.timestamp == Self.now)
    }

    @Test(
        "invalid visits are errors naming what is wrong",
        arguments: [
            (Date.distantPast, Date.distantFuture, 35.0, "CLVisit"),
            (now, now.addingTimeInterval(-60), 35.0, "departureDate"),
            (now, Date.distantFuture, -1.0, "horizontalAccuracy"),
        ])
    func invalidVisit(arrival: Date, departure: Date, accuracy: Double, field: String) {
        #expect {
            try Visit.fromCoreLocation(
                latitude: 48.137, longitude: 11.575, horizontalAccuracy: accuracy, arrivalDate: arrival, departureDate: departure)
        } throws: { error in
            (error as? ValidationError)?.field == field
        }
    }

    // MARK: Location service settings

    @Test(
        "LocationAccuracy → desiredAccuracy",
        arguments: [
            (LocationAccuracy.best, -1.0), (.tenMeters, 10), (.hundredMeters, 100), (.kilometer, 1000), (.threeKilometers, 3000),
        ])
    func desiredAccuracy(accuracy: LocationAccuracy, expected: Double) {
        #expect(accuracy.coreLocationDesiredAccuracy == expected)
    }

    @Test("the CLLocationAccuracy and CLLocationDistance constants")
    func accuracyConstants() {
        #expect(CoreLocationConstants.accuracyBestForNavigation == -2)
        #expect(CoreLocationConstants.accuracyBest == -1)
        #expect(CoreLocationConstants.accuracyNearestTenMeters == 10)
        #expect(CoreLocationConstants.accuracyHundredMeters == 100)
        #expect(CoreLocationConstants.accuracyKilometer == 1000)
        #expect(CoreLocationConstants.accuracyThreeKilometers == 3000)
        #expect(CoreLocationConstants.distanceFilterNone == -1)
        #expect(CoreLocationConstants.regionMonitoringUnavailable == -1)
        #expect(CoreLocationConstants.minimumReliableRegionRadius == 100)
    }

    @Test("other constants: accuracy authorization, region states, slots")
    func otherConstants() {
        #expect(CoreLocationConstants.fullAccuracy == 0)
        #expect(CoreLocationConstants.reducedAccuracy == 1)
        #expect(CoreLocationConstants.regionStateUnknown == 0)
        #expect(CoreLocationConstants.regionStateInside == 1)
        #expect(CoreLocationConstants.regionStateOutside == 2)
        #expect(CoreLocationConstants.maximumMonitoredRegions == 20)
        #expect(TrackerConfiguration(mode: .manual).slotCount == CoreLocationConstants.maximumMonitoredRegions)
    }

    @Test(
        "distance filter: nil, zero, negative or non-finite → kCLDistanceFilterNone",
        arguments: [
            (Double?.none, -1.0), (0, -1), (-5, -1), (.nan, -1), (.infinity, -1), (25, 25), (0.5, 0.5),
        ])
    func distanceFilter(filter: Double?, expected: Double) {
        #expect(StandardUpdates(accuracy: .best, distanceFilter: filter).coreLocationDistanceFilter == expected)
    }

    @Test("a location request becomes manager settings")
    func configuration() {
        let moving = CoreLocationConfiguration(
            LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: 20), significantChange: false),
            backgroundModeDeclared: true)
        #expect(moving.standardUpdates)
        #expect(moving.desiredAccuracy == 100)
        #expect(moving.distanceFilter == 20)
        #expect(!moving.significantChanges)
        #expect(moving.allowsBackgroundLocationUpdates)
        #expect(!moving.pausesLocationUpdatesAutomatically)

        let undeclared = CoreLocationConfiguration(
            LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: nil), significantChange: false),
            backgroundModeDeclared: false)
        #expect(!undeclared.allowsBackgroundLocationUpdates)
        #expect(undeclared.desiredAccuracy == -1)
        #expect(undeclared.distanceFilter == -1)

        let significant = CoreLocationConfiguration(LocationRequest(standard: nil, significantChange: true), backgroundModeDeclared: true)
        #expect(!significant.standardUpdates)
        #expect(significant.significantChanges)
        #expect(!significant.allowsBackgroundLocationUpdates)
        #expect(significant.desiredAccuracy == 3000)
        #expect(significant.distanceFilter == -1)

        let off = CoreLocationConfiguration(.off, backgroundModeDeclared: true)
        #expect(!off.standardUpdates && !off.significantChanges && !off.allowsBackgroundLocationUpdates)
    }

    // MARK: Regions

    @Test("a planned slot becomes CLCircularRegion parameters; the refresh region ignores entries")
    func region() throws {
        let center = try Coordinate(latitude: 48.137, longitude: 11.575)
        let story = try MonitoredRegion(id: "story-1", center: center, radius: 250)
            .coreLocationRegion(maximumRegionMonitoringDistance: 400_000)
        #expect(story.identifier == "story-1")
        #expect(story.latitude == 48.137 && story.longitude == 11.575)
        #expect(story.radius == 250)
        #expect(story.notifyOnEntry && story.notifyOnExit)
        #expect(story.requestsState, "a region handed as it is asks the OS for the device's state")
        let fitted = try MonitoredRegion(id: "story-1", center: center, radius: 275, reportsState: false)
            .coreLocationRegion(maximumRegionMonitoringDistance: 400_000)
        #expect(!fitted.requestsState, "a circle fitted to the cushion does not")

        let refresh = try MonitoredRegion(id: MonitoredRegion.refreshRegionID, center: center, radius: 5000)
            .coreLocationRegion(maximumRegionMonitoringDistance: 1000)
        #expect(refresh.radius == 1000)
        #expect(!refresh.notifyOnEntry && refresh.notifyOnExit)
    }

    @Test("region monitoring unavailable (maximum distance −1) is an error", arguments: [-1.0, 0, .nan])
    func regionUnavailable(maximum: Double) throws {
        let region = MonitoredRegion(id: "a", center: try Coordinate(latitude: 0, longitude: 0), radius: 100)
        #expect {
            try region.coreLocationRegion(maximumRegionMonitoringDistance: maximum)
        } throws: { error in
            (error as? ValidationError)?.field == "maximumRegionMonitoringDistance"
        }
    }

    @Test("CoreMotion activity: the fastest class named wins, running is walking, unknown is nothing")
    func motionActivity() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func map(_ flags: (Bool, Bool, Bool, Bool, Bool), confidence: Int = 2) -> MotionActivity? {
            MotionActivity.fromCoreMotion(
                stationary: flags.0, walking: flags.1, running: flags.2, cycling: flags.3, automotive: flags.4,
                confidence: confidence, start: start)
        }
        #expect(map((true, false, false, false, true))?.kind == .automotive)
        #expect(map((false, false, true, false, false))?.kind == .walking)
        #expect(map((false, false, false, true, false), confidence: 0)?.confidence == .low)
        #expect(map((true, false, false, false, false), confidence: 7)?.confidence == .low)
        #expect(map((false, false, false, false, false)) == nil)
    }

    @Test("visits and motion activity run when the request asks for them")
    func visitsAndMotion() {
        let request = LocationRequest(standard: nil, significantChange: true, visits: true, motionActivity: false)
        let configuration = CoreLocationConfiguration(request, backgroundModeDeclared: true)
        #expect(configuration.visits && !configuration.motionActivity && !configuration.allowsBackgroundLocationUpdates)
    }
}
