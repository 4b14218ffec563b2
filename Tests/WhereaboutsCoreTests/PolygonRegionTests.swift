import Foundation
import Testing
import WhereaboutsCore

@Suite("Polygon regions")
struct PolygonRegionTests {
    private func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    /// A square of `side` degrees around (lat, lon), with an optional square hole of `hole` degrees.
    private func square(_ lat: Double, _ lon: Double, _ side: Double, hole: Double? = nil) -> [[Coordinate]] {
        func ring(_ s: Double) -> [Coordinate] {
            [
                c(lat - s / 2, lon - s / 2), c(lat - s / 2, lon + s / 2), c(lat + s / 2, lon + s / 2), c(lat + s / 2, lon - s / 2),
                c(lat - s / 2, lon - s / 2),
            ]
        }
        return [ring(side)] + (hole.map { [ring($0)] } ?? [])
    }

    @Test("inside, outside and in the hole, with signed distances in metres")
    func holes() throws {
        let region = try Region(id: "p", polygons: [square(48, 11, 0.02, hole: 0.004)])
        #expect(region.signedDistance(from: c(48.006, 11)) < 0)
        #expect(region.signedDistance(from: c(48, 11)) > 0)
        #expect(region.signedDistance(from: c(48.02, 11)) > 0)
        let edge = region.signedDistance(from: c(48.0, 11.01 + 0.001))
        #expect(abs(edge - 0.001 * Geodesy.metresPerDegreeLatitude * cos(48 * Double.pi / 180)) < 1)
    }

    @Test("the OS gets the smallest enclosing circle")
    func enclosingCircle() throws {
        let region = try Region(id: "p", polygons: [square(48, 11, 0.02)])
        let corner = c(48.01, 11.01)
        #expect(Geodesy.distance(region.center, c(48, 11)) < 5)
        #expect(abs(region.radius - Geodesy.distance(c(48, 11), corner)) < 5)
        for vertex in [c(47.99, 10.99), c(47.99, 11.01), corner, c(48.01, 10.99)] {
            #expect(Geodesy.distance(region.center, vertex) <= region.radius + 1e-6)
        }
    }

    @Test("a polygon across the antimeridian works")
    func antimeridian() throws {
        let ring = [c(-1, 179.5), c(-1, -179.5), c(1, -179.5), c(1, 179.5), c(-1, 179.5)]
        let region = try Region(id: "fiji", polygons: [[ring]])
        #expect(region.signedDistance(from: c(0, 179.9)) < 0)
        #expect(region.signedDistance(from: c(0, -179.9)) < 0)
        #expect(region.signedDistance(from: c(0, 179)) > 0)
        #expect(abs(abs(region.center.longitude) - 180) < 0.01)
        var engine = GeofenceEngine(regions: [region])
        let fix = try Fix(coordinate: c(0, -179.95), horizontalAccuracy: 5, timestamp: Date(timeIntervalSince1970: 0))
        #expect(engine.evaluate(fix).map(\.kind) == [.enter])
    }

    @Test("a multipolygon is inside when in any part; the engine judges it exactly")
    func multipolygon() throws {
        let region = try Region(id: "m", polygons: [square(48, 11, 0.01), square(48, 11.05, 0.01)])
        #expect(region.signedDistance(from: c(48, 11.05)) < 0)
        #expect(region.signedDistance(from: c(48, 11.025)) > 0)
        var engine = GeofenceEngine(regions: [region])
        let t = Date(timeIntervalSince1970: 0)
        #expect(engine.evaluate(try Fix(coordinate: c(48, 11.025), horizontalAccuracy: 5, timestamp: t)).isEmpty)
        #expect(engine.evaluate(try Fix(coordinate: c(48, 11.05), horizontalAccuracy: 5, timestamp: t + 10)).map(\.kind) == [.enter])
    }

    /// A rectangle `width` metres east–west by `height` metres north–south centred on (lat, lon).
    private func rectangle(_ lat: Double, _ lon: Double, width: Double, height: Double) -> [[Coordinate]] {
        let dLat = height / 2 / Geodesy.metresPerDegreeLatitude
        let dLon = width / 2 / (Geodesy.metresPerDegreeLatitude * cos(lat * .pi / 180))
        return [
            [
                c(lat - dLat, lon - dLon), c(lat - dLat, lon + dLon), c(lat + dLat, lon + dLon), c(lat + dLat, lon - dLon),
                c(lat - dLat, lon - dLon),
            ]
        ]
    }

    @Test("a strip 40 m wide is entered by a fine fix on its centre line, also after leaving it")
    func narrowStripIsEntered() throws {
        let strip = try Region(id: "strip", polygons: [rectangle(48, 11, width: 1_000, height: 40)])
        #expect(strip.radius > 400, "the enclosing circle alone would put the band deeper than any point")
        var engine = GeofenceEngine(regions: [strip])
        let t = Date(timeIntervalSince1970: 0)
        let first = engine.evaluate(try Fix(coordinate: c(48, 11.001), horizontalAccuracy: 3, timestamp: t))
        #expect(first.map(\.kind) == [.enter])
        #expect(first.map(\.initial) == [true])
        #expect(engine.state(of: "strip") == .inside)
        let away = c(48 + 300 / Geodesy.metresPerDegreeLatitude, 11)
        #expect(engine.evaluate(try Fix(coordinate: away, horizontalAccuracy: 3, timestamp: t + 60)).map(\.kind) == [.exit])
        let back = engine.evaluate(try Fix(coordinate: c(48, 10.999), horizontalAccuracy: 3, timestamp: t + 120))
        #expect(back.map(\.kind) == [.enter])
        #expect(back.map(\.initial) == [false])
        // A fix as coarse as the strip is wide is still no evidence of being in it.
        var coarse = GeofenceEngine(regions: [strip])
        #expect(coarse.evaluate(try Fix(coordinate: c(48, 11), horizontalAccuracy: 25, timestamp: t)).isEmpty)
        #expect(coarse.state(of: "strip") == nil)
    }

    @Test("a polygon's size is the depth of its deepest point; a circle's is its radius")
    func size() throws {
        // Within 1 % and never deeper than a point inside is.
        func near(_ size: Double, _ expected: Double) -> Bool { size <= expected + 0.05 && size >= 0.99 * expected - 0.05 }
        #expect(near(try Region(id: "s", polygons: [rectangle(48, 11, width: 1_000, height: 40)]).size, 20))
        let side = 0.002 * Geodesy.metresPerDegreeLatitude
        #expect(near(try Region(id: "q", polygons: [square(0, 30, 0.002)]).size, side / 2))
        // A square 0.02° wide round a hole 0.016° wide: the band between them is 0.002° wide, but
        // deepest in a corner, on the diagonal t° from the centre where the outer edges (0.01 − t)
        // are as far as the hole's corner (√2·(t − 0.008)).
        let ring = try Region(id: "r", polygons: [square(0, 30, 0.02, hole: 0.016)])
        let t = (0.01 + 0.008 * 2.0.squareRoot()) / (1 + 2.0.squareRoot())
        #expect(near(ring.size, (0.01 - t) * Geodesy.metresPerDegreeLatitude))
        // Two buildings: the larger decides.
        let campus = try Region(
            id: "c", polygons: [rectangle(48, 11, width: 60, height: 30), rectangle(48, 11.01, width: 100, height: 80)])
        #expect(near(campus.size, 40))
        #expect(region("circle", home, radius: 123).size == 123)
        // Stored polygons carry no new field; decoding computes the size again.
        let data = try JSONEncoder().encode(ring)
        #expect(try JSONDecoder().decode(Region.self, from: data) == ring)
        #expect(!String(decoding: data, as: UTF8.self).contains("inradius"))
    }

    @Test("empty and degenerate geometry is refused")
    func degenerate() {
        #expect(throws: ValidationError.self) { try Region(id: "e", polygons: []) }
        #expect(throws: ValidationError.self) { try Region(id: "e", polygons: [[[self.c(0, 0), self.c(0, 1), self.c(0, 0)]]]) }
        #expect(throws: ValidationError.self) {
            try Region(id: "e", polygons: [[[self.c(89.95, 0), self.c(89.95, 120), self.c(89.95, -120), self.c(89.95, 0)]]])
        }
    }

    /// Bug: a ring with its corners on one line was accepted, and the region could never be entered;
    /// the pole refusal named latitude 90 whatever was given, and no ring.
    @Test("a ring with no area is refused; errors name the polygon, the ring and the latitude at fault")
    func flatRingsAndPoles() throws {
        let square = [c(0, 0), c(0, 0.01), c(0.01, 0.01), c(0.01, 0), c(0, 0)]
        for line in [
            [c(0, 0), c(0, 1), c(0, 2), c(0, 0)], [c(0, 0), c(1, 1), c(2, 2), c(0, 0)], [c(10, 170), c(10, 175), c(10, -175), c(10, 170)],
        ] {
            let error = validationError { () throws(ValidationError) in try Region(id: "line", polygons: [[square], [line]]) }
            #expect(error?.field == "ring 1 of polygon 2")
            #expect(error?.problem.contains("no area") == true, "\(String(describing: error))")
        }
        let polar = validationError { () throws(ValidationError) in
            try Region(id: "cap", polygons: [[square, [self.c(-89.95, 0), self.c(-89.95, 120), self.c(-80, 0), self.c(-89.95, 0)]]])
        }
        #expect(polar?.field == "ring 2 of polygon 1")
        #expect(polar?.value == "latitude -89.95")
        // A polygon wider than any radius a circle may have is taken: its enclosing circle is not
        // a radius the app gave.
        #expect(
            try Region(id: "continent", polygons: [[[c(-30, -10), c(-30, 40), c(30, 40), c(30, -10), c(-30, -10)]]]).radius > 1_000_000)
        // A hundred-metre square far out in longitude is no line.
        #expect(
            try Region(id: "far", polygons: [[[c(-45, 179.999), c(-45, -179.999), c(-44.999, -179.999), c(-45, 179.999)]]]).radius > 50)
    }

    @Test("GeoJSON polygons and multipolygons stream in, fed a byte at a time")
    func geoJSON() throws {
        let text = """
            {"type":"FeatureCollection","name":"with \\"quotes\\" and ] brackets","features":[
              {"type":"Feature","properties":{"id":"park"},"geometry":{"type":"Polygon","coordinates":[[[11,48],[11.01,48],[11.01,48.01],[11,48.01],[11,48]],[[11.004,48.004],[11.006,48.004],[11.006,48.006],[11.004,48.004]]]}},
              {"type":"Feature","properties":{"id":"two","loiteringDelay":60},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[0.01,0],[0.01,0.01],[0,0]]],[[[1,1],[1.01,1],[1.01,1.01],[1,1]]]]}},
              {"type":"Feature","properties":{"id":"pt","radius":100000},"geometry":{"type":"Point","coordinates":[0,89.5]}}
            ]}
            """
        var reader = GeoJSONRegionReader(sourceName: "poly.geojson")
        var regions: [Region] = []
        for byte in text.utf8 { regions += try reader.feed([byte]) }
        regions += try reader.finish()
        #expect(regions.map(\.id) == ["park", "two", "pt"])
        #expect(regions[1].loiteringDelay == 60)
        #expect(try GeoJSONRegionReader.regions(from: Data(text.utf8), sourceName: "x") == regions)
        #expect(throws: FormatError.self) { try GeoJSONRegionReader.regions(from: Data(text.dropLast(3).utf8), sourceName: "x") }
    }
}
