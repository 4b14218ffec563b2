import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Geodesy against known values")
struct GeodesyTests {
    private func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    @Test("across the antimeridian the short way round")
    func antimeridian() {
        let d = Geodesy.distance(c(0, 179.5), c(0, -179.5))
        #expect(abs(d - 111_195.08) < 1)
        #expect(abs(Geodesy.bearing(from: c(0, 179.5), to: c(0, -179.5)) - 90) < 1e-6)
        let mid = Geodesy.interpolate(c(0, 179.5), c(0, -179.5), fraction: 0.5)
        #expect(abs(abs(mid.longitude) - 180) < 1e-6)
    }

    @Test("near the poles")
    func poles() {
        #expect(abs(Geodesy.distance(c(89.9, 0), c(89.9, 180)) - 22_239) < 2)
        #expect(abs(Geodesy.distance(c(90, 0), c(-90, 0)) - 20_015_115) < 5)
        #expect(abs(Geodesy.bearing(from: c(89, 0), to: c(89, 180)) - 0) < 1e-6)
    }

    @Test("bearings")
    func bearings() {
        #expect(abs(Geodesy.bearing(from: c(0, 0), to: c(0, 1)) - 90) < 1e-9)
        #expect(abs(Geodesy.bearing(from: c(0, 0), to: c(1, 0))) < 1e-9)
        #expect(abs(Geodesy.bearing(from: c(0, 0), to: c(1, 1)) - 44.9956) < 1e-3)
        #expect(abs(Geodesy.bearing(from: c(0, 0), to: c(0, -1)) - 270) < 1e-9)
    }

    @Test("destination then distance and bearing back", arguments: [0.0, 45, 135, 270, 359])
    func destinationRoundTrip(bearing: Double) {
        let start = c(60, 179.9)
        let end = Geodesy.destination(from: start, distance: 12_345, bearing: bearing)
        #expect(abs(Geodesy.distance(start, end) - 12_345) < 0.01)
        let back = Geodesy.bearing(from: start, to: end)
        #expect(min(abs(back - bearing), 360 - abs(back - bearing)) < 1e-6)
    }

    @Test("the local frame stays within 4 cm of the great-circle distance up to its flat limit")
    func localFrameAccuracy() {
        var g = SeededGenerator(seed: 5)
        var worst = 0.0
        for _ in 0..<20_000 {
            let origin = c(Double.random(in: -79.5...79.5, using: &g), Double.random(in: -180...180, using: &g))
            let point = Coordinate(
                normalizingLatitude: origin.latitude + Double.random(in: -0.199...0.199, using: &g),
                longitude: origin.longitude + Double.random(in: -0.199...0.199, using: &g))
            worst = max(worst, abs(LocalFrame(at: origin).distance(to: point) - Geodesy.distance(origin, point)))
        }
        #expect(worst < 0.04)
    }

    @Test("a 15 km region at 60° N contains exactly the fixes the great-circle distance puts inside")
    func largeRegionBoundary() throws {
        let centre = c(60, 10)
        let region = try Region(id: "lake", center: centre, radius: 15_000)
        var index = RegionIndex()
        index.insert(region)
        var g = SeededGenerator(seed: 6)
        for _ in 0..<2_000 {
            let point = Geodesy.destination(
                from: centre, distance: 15_000 + Double.random(in: -3...3, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let inside = Geodesy.distance(point, centre) - 15_000 <= 0
            #expect(index.containing(point, accuracy: 0) == (inside ? ["lake"] : []))
        }
    }
}

extension GeodesyTests {
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
        let a = coord(0, 179.5)
        let b = coord(0, -179.5)
        let mid = Geodesy.interpolate(a, b, fraction: 0.5)
        #expect(abs(abs(mid.longitude) - 180) < 1e-6)
        #expect(abs(mid.latitude) < 1e-9)
        #expect(abs(Geodesy.distance(mid, a) - Geodesy.distance(mid, b)) < 1e-3)
    }

    @Test func interpolateEnds() {
        let a = home
        let b = point(home, metres: 5_000, bearing: 33)
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
