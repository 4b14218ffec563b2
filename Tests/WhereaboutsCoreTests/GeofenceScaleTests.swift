import Foundation
import Testing
import WhereaboutsCore

@Suite("Geofences at scale and at the edges")
struct GeofenceScaleTests {
    typealias F = TestFixtures

    private func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    private func brute(_ regions: [Region], _ point: Coordinate, _ accuracy: Double) -> [String] {
        regions.filter { $0.signedDistance(from: point) <= accuracy }.map(\.id).sorted()
    }

    @Test("containment answers equal brute force after incremental adds and removes")
    func incremental() {
        var g = SeededGenerator(seed: 21)
        var regions = (0..<5000).map { i in
            F.region(
                "r\(i)", at: F.point(Double.random(in: 0...8000, using: &g), bearing: Double.random(in: 0..<360, using: &g)),
                radius: Double.random(in: 1...400, using: &g))
        }
        var engine = GeofenceEngine(regions: regions)
        let removed = Set(regions.indices.filter { $0 % 3 == 0 }.map { "r\($0)" })
        engine.remove(Array(removed))
        regions.removeAll { removed.contains($0.id) }
        let moved = (0..<500).map { i in F.region("r\(i * 3 + 1)", at: F.point(Double(i) * 10, bearing: 45), radius: 60) }
        engine.add(moved)
        regions = regions.filter { r in !moved.contains { $0.id == r.id } } + moved
        #expect(engine.index.count == regions.count)
        for _ in 0..<300 {
            let p = F.point(Double.random(in: 0...8000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let a = Double.random(in: 0...150, using: &g)
            #expect(engine.index.containing(p, accuracy: a) == brute(regions, p, a))
        }
    }

    @Test("radii from 1 m to 100 km", arguments: [1.0, 10, 100, 1_000, 10_000, 100_000])
    func radii(radius: Double) {
        var engine = GeofenceEngine(regions: [F.region("r", radius: radius), F.region("other", at: F.point(300_000), radius: 50)])
        let t = Date(timeIntervalSince1970: 0)
        let outside = try! Fix(coordinate: F.point(radius + 200), horizontalAccuracy: 3, timestamp: t)
        let inside = try! Fix(coordinate: F.point(radius * 0.2), horizontalAccuracy: 0.1, timestamp: t + 10)
        #expect(engine.evaluate(outside).isEmpty)
        let events = engine.evaluate(inside)
        #expect(events.map(\.regionID) == ["r"] && events[0].kind == .enter)
        #expect(engine.index.containing(F.point(radius * 0.5), accuracy: 0) == ["r"])
        #expect(engine.index.nearestBoundaries(to: F.point(radius * 0.5), limit: 1).first?.region.id == "r")
    }

    @Test("regions at the poles and on the antimeridian", arguments: [(90.0, 0.0), (-89.99, 45.0), (0.0, 180.0), (10.0, -179.999)])
    func polesAndAntimeridian(lat: Double, lon: Double) throws {
        let centre = c(lat, lon)
        var engine = GeofenceEngine(regions: [try Region(id: "edge", center: centre, radius: 500)])
        let t = Date(timeIntervalSince1970: 0)
        for bearing in [0.0, 90, 180, 270] {
            let near = Geodesy.destination(from: centre, distance: 300, bearing: bearing)
            let far = Geodesy.destination(from: centre, distance: 900, bearing: bearing)
            #expect(engine.index.containing(near, accuracy: 0) == ["edge"], "\(bearing)")
            #expect(engine.index.containing(far, accuracy: 0).isEmpty, "\(bearing)")
        }
        let fix = try Fix(coordinate: Geodesy.destination(from: centre, distance: 100, bearing: 90), horizontalAccuracy: 5, timestamp: t)
        #expect(engine.evaluate(fix).map(\.kind) == [.enter])
    }

    @Test("a duplicate id replaces the earlier region, forgetting its state without an exit")
    func duplicates() {
        var engine = GeofenceEngine(regions: [F.region("a", radius: 200), F.region("a", at: F.point(5000), radius: 200)])
        #expect(engine.index.count == 1 && engine.index["a"]?.center == F.point(5000))
        #expect(engine.evaluate(F.fix(east: 5000, at: 0)).map(\.initial) == [true])
        engine.add([F.region("a", radius: 200)])
        #expect(engine.state(of: "a") == nil)
        #expect(engine.evaluate(F.fix(east: 5000, at: 10)).isEmpty)
    }

    @Test("in a bulk add a duplicate id replaces the earlier region too, wherever the two lie")
    func bulkDuplicates() throws {
        // Over 1000 regions are added in Z-order of their centres, where (46, 8) comes before (47, 8).
        let fillers = (0..<1000).map { F.region("filler\($0)", at: F.point(Double($0) * 10), radius: 50) }
        let first = try Region(id: "dup", center: c(47, 8), radius: 100)
        let last = try Region(id: "dup", center: c(46, 8), radius: 100)
        var engine = GeofenceEngine(regions: [first] + fillers + [last])
        #expect(engine.index.count == 1001)
        #expect(engine.index["dup"]?.center.latitude == 46)
        #expect(engine.index.containing(c(47, 8), accuracy: 0).isEmpty)
        #expect(engine.index.containing(c(46, 8), accuracy: 0) == ["dup"])
        // Again over regions already there, and with a second pair after the first.
        let second = try Region(id: "dup2", center: c(45, 8), radius: 100)
        let secondLast = try Region(id: "dup2", center: c(44, 8), radius: 100)
        engine.add([first, second] + fillers + [last, secondLast])
        #expect(engine.index.count == 1002)
        #expect(engine.index["dup"]?.center.latitude == 46)
        #expect(engine.index["dup2"]?.center.latitude == 44)
        #expect(engine.index.containing(c(45, 8), accuracy: 0).isEmpty)
        #expect(engine.index.containing(c(44, 8), accuracy: 0) == ["dup2"])
    }

    @Test("a dwell noticed after a suspension carries the moment the delay ended; an exit first cancels it")
    func dwellAcrossSuspension() {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .significant), regions: [F.region("a", radius: 300, loitering: 600)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 2000, accuracy: 50, at: 1)), now: F.date(1))
        _ = tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(1000))
        let late = tracker.handle(.fix(F.fix(east: 0, accuracy: 50, at: 5000)), now: F.date(5000))
        #expect(late.events.map(\.kind) == [.dwell] && late.events[0].timestamp == F.date(1600))
        _ = tracker.handle(.regionCrossing(id: "a", state: .outside), now: F.date(6000))
        _ = tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(7000))
        let exit = tracker.handle(.regionCrossing(id: "a", state: .outside), now: F.date(7100))
        #expect(exit.events.map(\.kind) == [.exit])
        #expect(tracker.handle(.wake, now: F.date(9000)).events.isEmpty)
    }
}
