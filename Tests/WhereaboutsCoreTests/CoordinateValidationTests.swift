import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Validation of coordinates, fixes and regions")
struct CoordinateValidationTests {
    // MARK: Coordinate

    @Test(arguments: [Double.nan, .infinity, -.infinity, 90.0001, -90.0001, 180])
    func badLatitudeIsRejectedNamingFieldAndValue(_ latitude: Double) throws {
        let error = try #require(
            validationError { () throws(ValidationError) in
                try Coordinate(latitude: latitude, longitude: 0)
            })
        #expect(error.field == "latitude")
        #expect(error.value == "\(latitude)")
        #expect(error.description.contains("latitude"))
        #expect(error.description.contains("\(latitude)"))
        #expect(!error.fix.isEmpty)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -180.5, 180.0001, 360])
    func badLongitudeIsRejectedNamingFieldAndValue(_ longitude: Double) throws {
        let error = try #require(
            validationError { () throws(ValidationError) in
                try Coordinate(latitude: 0, longitude: longitude)
            })
        #expect(error.field == "longitude")
        #expect(error.value == "\(longitude)")
        #expect(error.description.contains("longitude \(longitude)"))
    }

    @Test func latitudeIsCheckedBeforeLongitude() {
        let error = validationError { () throws(ValidationError) in try Coordinate(latitude: .nan, longitude: .nan) }
        #expect(error?.field == "latitude")
    }

    @Test(arguments: [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0), (-33.8688, 151.2093)])
    func limitsAreAccepted(latitude: Double, longitude: Double) throws {
        let c = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(c.latitude == latitude)
        #expect(c.longitude == longitude)
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(home)
        #expect(try JSONDecoder().decode(Coordinate.self, from: data) == home)
    }

    @Test(arguments: [
        #"{"latitude": 90.0001, "longitude": 0}"#,
        #"{"latitude": 0, "longitude": -180.5}"#,
        #"{"latitude": -91, "longitude": 10}"#,
    ])
    func decodingABadCoordinateThrows(_ json: String) {
        #expect(throws: ValidationError.self) {
            try JSONDecoder().decode(Coordinate.self, from: Data(json.utf8))
        }
    }

    // MARK: Fix

    @Test(arguments: [-1.0, -0.0001, .nan, .infinity])
    func badAccuracyIsRejected(_ accuracy: Double) {
        let error = validationError { () throws(ValidationError) in
            try Fix(coordinate: home, horizontalAccuracy: accuracy, timestamp: time(0))
        }
        #expect(error?.field == "horizontalAccuracy")
        #expect(error?.value == "\(accuracy)")
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func badSpeedIsRejected(_ speed: Double) {
        let error = validationError { () throws(ValidationError) in
            try Fix(coordinate: home, horizontalAccuracy: 5, speed: speed, timestamp: time(0))
        }
        #expect(error?.field == "speed")
        #expect(error?.value == "\(speed)")
    }

    @Test(arguments: [360.0, -1.0, 400, .nan])
    func badCourseIsRejected(_ course: Double) {
        let error = validationError { () throws(ValidationError) in
            try Fix(coordinate: home, horizontalAccuracy: 5, course: course, timestamp: time(0))
        }
        #expect(error?.field == "course")
        #expect(error?.value == "\(course)")
    }

    @Test func nonFiniteAltitudeIsRejected() {
        let error = validationError { () throws(ValidationError) in
            try Fix(coordinate: home, horizontalAccuracy: 5, altitude: .infinity, timestamp: time(0))
        }
        #expect(error?.field == "altitude")
    }

    @Test func goodFixIsAccepted() throws {
        let f = try Fix(
            coordinate: home, horizontalAccuracy: 0, altitude: -20, speed: 0, course: 359.99, timestamp: time(0),
            source: .wifi)
        #expect(f.horizontalAccuracy == 0)
        #expect(f.course == 359.99)
        #expect(f.source == .wifi)
    }

    // MARK: Region

    @Test(arguments: [0.0, -5, .nan, .infinity, -.infinity, 0.5, 1_000_001])
    func badRadiusIsRejected(_ radius: Double) {
        let error = validationError { () throws(ValidationError) in
            try Region(id: "home", center: home, radius: radius)
        }
        #expect(error?.field == "radius")
        #expect(error?.value == "\(radius)")
        #expect(error?.description.contains("radius \(radius)") == true)
    }

    @Test func emptyIDIsRejected() {
        let error = validationError { () throws(ValidationError) in try Region(id: "", center: home, radius: 100) }
        #expect(error?.field == "id")
    }

    /// Bug: a region the device accepted, with an id the companion server refuses, had every event
    /// refused upstream and never sent again; and a user region named as the engine's refresh
    /// region lost its OS monitoring and its notifications.
    @Test(arguments: [String(repeating: "a", count: 201), "office\t2", "line\nbreak", "whereabouts.refresh", "whereabouts.mine"])
    func idsTheServerOrTheEngineKeepsAreRefused(_ id: String) throws {
        let circle = validationError { () throws(ValidationError) in try Region(id: id, center: home, radius: 100) }
        #expect(circle?.field == "id")
        let north = try Coordinate(latitude: home.latitude + 0.001, longitude: home.longitude)
        let northEast = try Coordinate(latitude: home.latitude + 0.001, longitude: home.longitude + 0.001)
        let square = [[[home, north, northEast, home]]]
        let polygon = validationError { () throws(ValidationError) in try Region(id: id, polygons: square) }
        #expect(polygon?.field == "id")
        #expect(circle?.fix.isEmpty == false)
    }

    @Test func longestPrintableIDIsAccepted() throws {
        #expect(try Region(id: String(repeating: "é", count: 200), center: home, radius: 1_000_000).radius == 1_000_000)
    }

    /// Regions stored before the id and radius rules still load: launching must not fail on them.
    @Test func storedRegionsFromBeforeTheRulesStillDecode() throws {
        let json =
            #"{"id": "whereabouts.x\u0009\#(String(repeating: "a", count: 300))", "center": {"latitude": 47, "longitude": 8}, "radius": 0.5, "notifyOnEntry": true, "notifyOnExit": true}"#
        let region = try JSONDecoder().decode(Region.self, from: Data(json.utf8))
        #expect(region.radius == 0.5)
        #expect(region.id.count == 314)
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func badLoiteringDelayIsRejected(_ delay: Double) {
        let error = validationError { () throws(ValidationError) in
            try Region(id: "home", center: home, radius: 100, loiteringDelay: delay)
        }
        #expect(error?.field == "loiteringDelay")
    }

    @Test func goodRegionIsAccepted() throws {
        let r = try Region(id: "home", center: home, radius: 1, notifyOnExit: false, loiteringDelay: 0)
        #expect(r.radius == 1)
        #expect(r.notifyOnEntry)
        #expect(!r.notifyOnExit)
    }

    // MARK: Decoding must keep the invariants the initialisers promise

    /// Bug: `Region` gets the synthesised `init(from:)`, which never runs the validation of
    /// `init(id:center:radius:…)`, so a decoded region can have an empty id or a radius ≤ 0.
    @Test func decodingARegionWithABadRadiusThrows() {
        let json = #"""
            {"id": "", "center": {"latitude": 47, "longitude": 8}, "radius": -5,
             "notifyOnEntry": true, "notifyOnExit": true}
            """#
        #expect(throws: ValidationError.self) {
            try JSONDecoder().decode(Region.self, from: Data(json.utf8))
        }
    }

    /// Decoding a fix validates it: no negative accuracy, negative speed or course of 360.
    @Test func decodingAFixWithANegativeAccuracyThrows() throws {
        var object =
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(fix(home, acc: 5, t: 0))) as! [String: Any]
        object["horizontalAccuracy"] = -1
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: ValidationError.self) {
            try JSONDecoder().decode(Fix.self, from: data)
        }
    }
}
