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
