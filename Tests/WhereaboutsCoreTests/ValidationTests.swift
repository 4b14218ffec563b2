import Foundation
import Testing
import WhereaboutsCore

@Suite("Model validation")
struct ValidationTests {
    @Test(
        "bad coordinates are refused with the field and value named",
        arguments: [
            (Double.nan, 0.0, "latitude"), (90.0001, 0, "latitude"), (-91, 0, "latitude"),
            (0, -180.5, "longitude"), (0, .infinity, "longitude"), (0, .nan, "longitude"),
        ])
    func badCoordinates(lat: Double, lon: Double, field: String) {
        #expect { try Coordinate(latitude: lat, longitude: lon) } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == field && error.description.contains(field) && !error.fix.isEmpty
        }
    }

    @Test("the edges of the ranges are valid")
    func edges() throws {
        _ = try Coordinate(latitude: 90, longitude: 180)
        _ = try Coordinate(latitude: -90, longitude: -180)
    }

    @Test("bad fixes are refused")
    func badFixes() {
        let c = TestFixtures.origin
        let t = TestFixtures.date(0)
        #expect(throws: ValidationError.self) { try Fix(coordinate: c, horizontalAccuracy: -1, timestamp: t) }
        #expect(throws: ValidationError.self) { try Fix(coordinate: c, horizontalAccuracy: .nan, timestamp: t) }
        #expect(throws: ValidationError.self) { try Fix(coordinate: c, horizontalAccuracy: 5, speed: -1, timestamp: t) }
        #expect(throws: ValidationError.self) { try Fix(coordinate: c, horizontalAccuracy: 5, course: 360, timestamp: t) }
        #expect(throws: ValidationError.self) { try Fix(coordinate: c, horizontalAccuracy: 5, altitude: .infinity, timestamp: t) }
    }

    @Test("bad regions are refused")
    func badRegions() {
        let c = TestFixtures.origin
        for radius in [0, -5, Double.nan, .infinity] {
            #expect(throws: ValidationError.self) { try Region(id: "a", center: c, radius: radius) }
        }
        #expect(throws: ValidationError.self) { try Region(id: "", center: c, radius: 10) }
        #expect(throws: ValidationError.self) { try Region(id: "a", center: c, radius: 10, loiteringDelay: -1) }
    }

    @Test("decoding a coordinate validates it")
    func decoding() {
        let json = Data(#"{"latitude": 123, "longitude": 0}"#.utf8)
        #expect(throws: ValidationError.self) { try JSONDecoder().decode(Coordinate.self, from: json) }
    }
}
