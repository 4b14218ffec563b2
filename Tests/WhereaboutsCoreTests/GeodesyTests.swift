import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsSimulator

@Suite("Geodesy against known values")
struct GeodesyTests {
    private func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    @Test("Heathrow to JFK is about 5 540 km")
    func longHaul() {
        let d = Geodesy.distance(c(51.4775, -0.4614), c(40.6413, -73.7781))
        #expect(abs(d - 5_540_000) / 5_540_000 < 0.005)
    }

    @Test("one degree of latitude is 111.195 km on the mean sphere")
    func oneDegree() {
        #expect(abs(Geodesy.distance(c(0, 0), c(1, 0)) - 111_195.08) < 1)
    }

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
