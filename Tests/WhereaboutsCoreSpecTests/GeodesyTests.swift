import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Geodesy: distances, bearings, destinations")
struct GeodesyTests {
    /// Haversine on R = 6371.0088 km gives 5 539.294 km for LHR ↔ JFK (computed independently).
    @Test func heathrowToJFK() {
        let lhr = coord(51.4775, -0.4614)
        let jfk = coord(40.6413, -73.7781)
        let exact = 5_539_294.275
        let d = Geodesy.distance(lhr, jfk)
        #expect(abs(d - exact) <= exact * 0.005)
        #expect(abs(d - exact) < 1, "the spherical formula itself should be reproduced to the metre")
        #expect(abs(d - 5_540_000) <= 5_540_000 * 0.005)
        #expect(Geodesy.distance(jfk, lhr) == d)
    }

    @Test func oneDegreeOfLatitude() {
        #expect(abs(Geodesy.distance(coord(0, 0), coord(1, 0)) - 111_195.08) < 0.01)
        #expect(abs(Geodesy.distance(coord(45, 10), coord(46, 10)) - 111_195.08) < 0.01)
        #expect(abs(Geodesy.metresPerDegreeLatitude - 111_195.08) < 0.01)
    }

    @Test func acrossTheAntimeridianIsShort() {
        let d = Geodesy.distance(coord(0, 179.5), coord(0, -179.5))
        #expect(abs(d - 111_195.08) < 0.01)
        #expect(d < 200_000, "must not go the long way round (≈ 39 900 km)")
    }

    @Test func nearThePoles() {
        #expect(abs(Geodesy.distance(coord(89.9, 0), coord(89.9, 180)) - 22_239.02) < 0.05)
        #expect(abs(Geodesy.distance(coord(-89.9, 90), coord(-89.9, -90)) - 22_239.02) < 0.05)
    }

    @Test func poleToPole() {
        let d = Geodesy.distance(coord(90, 0), coord(-90, 0))
        #expect(abs(d - 20_015_114.44) < 0.1)
        #expect(abs(d - Geodesy.earthRadius * .pi) < 1e-6)
    }

    @Test func samePointIsZero() {
        #expect(Geodesy.distance(home, home) == 0)
    }

    struct BearingCase: Sendable, CustomTestStringConvertible {
        let from: (lat: Double, lon: Double)
        let to: (lat: Double, lon: Double)
        let bearing: Double
        var testDescription: String { "\(from) → \(to) ≈ \(bearing)°" }
    }

    @Test(arguments: [
        BearingCase(from: (0, 0), to: (0, 1), bearing: 90),
        BearingCase(from: (0, 179.5), to: (0, -179.5), bearing: 90),
        BearingCase(from: (0, -179.5), to: (0, 179.5), bearing: 270),
        BearingCase(from: (0, 0), to: (1, 0), bearing: 0),
        BearingCase(from: (10, 5), to: (-10, 5), bearing: 180),
        BearingCase(from: (0, 1), to: (0, 0), bearing: 270),
        BearingCase(from: (0, 0), to: (1, 1), bearing: 44.99564),
    ])
    func bearing(_ c: BearingCase) {
        let b = Geodesy.bearing(from: coord(c.from.lat, c.from.lon), to: coord(c.to.lat, c.to.lon))
        #expect(abs(b - c.bearing) < 1e-4, "bearing was \(b)°")
        #expect((0..<360).contains(b))
    }

    @Test func bearingDueNorthIsZeroNot360() {
        #expect(Geodesy.bearing(from: coord(-30, 120), to: coord(30, 120)) == 0)
    }

    @Test(arguments: [47.3769, 0.0, -33.9, 80.0, -60.0], [8.5417, 179.99, -179.95, -70.0])
    func destinationRoundTrip(lat: Double, lon: Double) {
        let start = coord(lat, lon)
        for distance in [1.0, 150, 2_500, 40_000, 1_000_000] {
            for bearing in stride(from: 0.0, to: 360, by: 37.5) {
                let end = Geodesy.destination(from: start, distance: distance, bearing: bearing)
                #expect((-180...180).contains(end.longitude))
                #expect(abs(Geodesy.distance(start, end) - distance) < max(1e-3, distance * 1e-9))
                if distance >= 150 {
                    #expect(angularDifference(Geodesy.bearing(from: start, to: end), bearing) < 1e-6)
                }
            }
        }
    }

    @Test func destinationEastwardAcrossTheAntimeridianWraps() {
        let end = Geodesy.destination(from: coord(0, 179.5), distance: 111_195.08, bearing: 90)
        #expect(abs(end.longitude - -179.5) < 1e-6)
        #expect(abs(end.latitude) < 1e-9)
    }

    @Test func interpolateMidpointAcrossTheAntimeridian() {
        let a = coord(0, 179.5), b = coord(0, -179.5)
        let mid = Geodesy.interpolate(a, b, fraction: 0.5)
        #expect(abs(abs(mid.longitude) - 180) < 1e-6)
        #expect(abs(mid.latitude) < 1e-9)
        #expect(abs(Geodesy.distance(mid, a) - Geodesy.distance(mid, b)) < 1e-3)
    }

    @Test func interpolateEnds() {
        let a = home, b = point(home, metres: 5_000, bearing: 33)
        #expect(Geodesy.distance(Geodesy.interpolate(a, b, fraction: 0), a) < 1e-6)
        #expect(Geodesy.distance(Geodesy.interpolate(a, b, fraction: 1), b) < 1e-3)
        #expect(abs(Geodesy.distance(Geodesy.interpolate(a, b, fraction: 0.25), a) - 1_250) < 1e-3)
        #expect(Geodesy.interpolate(a, a, fraction: 0.5) == a)
    }

    @Test func normalisingInitialiserWrapsLongitudeAndClampsLatitude() {
        let wrapped = Coordinate(normalizingLatitude: 10, longitude: 190)
        #expect(abs(wrapped.longitude - -170) < 1e-9)
        #expect(abs(Coordinate(normalizingLatitude: 0, longitude: -190).longitude - 170) < 1e-9)
        #expect(abs(Coordinate(normalizingLatitude: 0, longitude: 540).longitude - 180) < 1e-9)
        #expect(Coordinate(normalizingLatitude: 95, longitude: 0).latitude == 90)
        #expect(Coordinate(normalizingLatitude: -95, longitude: 0).latitude == -90)
    }
}
