import Foundation
import Testing
import WhereaboutsCore

@Suite("OS entries a circle cannot prove: unheeded while the device rides or drives, applied on foot")
struct TrackerUnprovenEntryTests {
    typealias F = TestFixtures

    /// A manual tracker whose GPS fix at the origin settled both regions outside: `small` (40 m, its
    /// centre 60 m east), which iOS judges as a 100 m circle, and `large` (300 m, 400 m east), whose
    /// fitted circle flips where the region's band ends. `activity` is then reported, if any.
    static func settled(activity: MotionActivity?) throws -> Tracker {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .manual),
            regions: [F.region("small", at: F.point(60), radius: 40), F.region("large", at: F.point(400), radius: 300)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, at: 1)), now: F.date(1))
        #expect(tracker.geofences.state(of: "small") == .outside && tracker.geofences.state(of: "large") == .outside)
        let handed = try #require(tracker.slotPlan?.regions).map(\.id)
        #expect(handed.contains("small") && handed.contains("large"))
        if let activity { _ = tracker.handle(.activity(activity), now: F.date(2)) }
        return tracker
    }

    static func report(_ kind: MotionActivity.Kind, _ confidence: MotionActivity.Confidence = .high) -> MotionActivity {
        MotionActivity(kind: kind, confidence: confidence, start: F.date(0))
    }

    @Test("in a vehicle or on a bike, the OS's entry into a region under 67 m reports nothing and asks for a fix")
    func unheededAtSpeed() throws {
        for kind in [MotionActivity.Kind.automotive, .cycling] {
            var tracker = try Self.settled(activity: Self.report(kind))
            // Past the 180 s in which the GPS fix would outweigh the OS's word anyway.
            let entry = tracker.handle(.regionCrossing(id: "small", state: .inside), now: F.date(300))
            #expect(entry.events.isEmpty, "\(kind)")
            #expect(entry.oneShots == [.best], "a fix is asked for to judge the region (\(kind))")
            #expect(tracker.geofences.state(of: "small") == .outside)
            let fix = tracker.handle(.fix(F.fix(east: 60, at: 305)), now: F.date(305))
            #expect(fix.events.map(\.regionID) == ["small"], "the fix finds the device inside and reports the entry (\(kind))")
        }
    }

    @Test("in a vehicle, an entry the handed circle proves (a region of 300 m) is applied")
    func provenEntryApplied() throws {
        var tracker = try Self.settled(activity: Self.report(.automotive))
        let entry = tracker.handle(.regionCrossing(id: "large", state: .inside), now: F.date(300))
        #expect(entry.events.map(\.regionID) == ["large"])
        #expect(entry.events.map(\.kind) == [.enter])
    }

    @Test("on foot, still, with no report, or with a low-confidence vehicle report, the same entry is applied")
    func appliedOtherwise() throws {
        let reports: [MotionActivity?] = [Self.report(.walking), Self.report(.stationary), nil, Self.report(.automotive, .low)]
        for report in reports {
            var tracker = try Self.settled(activity: report)
            let entry = tracker.handle(.regionCrossing(id: "small", state: .inside), now: F.date(300))
            #expect(entry.events.map(\.kind) == [.enter], "\(String(describing: report?.kind))")
            #expect(tracker.geofences.state(of: "small") == .inside)
        }
    }

    /// A polygon region: squares of `side` metres centred `east` metres east of the origin.
    static func squares(_ id: String, side: Double, east: [Double]) throws -> Region {
        let dLat = side / 2 / Geodesy.metresPerDegreeLatitude
        let rings = east.map { x -> [[Coordinate]] in
            let c = F.point(x)
            let dLon = side / 2 / (Geodesy.metresPerDegreeLatitude * cos(c.latitude * .pi / 180))
            let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1), (-1, -1)]
            return [corners.map { coord(c.latitude + $0.1 * dLat, c.longitude + $0.0 * dLon) }]
        }
        return try Region(id: id, polygons: rings)
    }

    @Test("the OS's entry into a polygon's enclosing circle reports nothing and asks for a fix, which decides; its exit is applied")
    func polygonEntryAsksForAFix() throws {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .significant),
            regions: [try Self.squares("square", side: 300, east: [0]), try Self.squares("campus", side: 100, east: [-400, 400])])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(F.point(2_000, bearing: 0), accuracy: 10, at: 1)), now: F.date(1))
        #expect(tracker.geofences.state(of: "square") == .outside && tracker.geofences.state(of: "campus") == .outside)

        let entry = tracker.handle(.regionCrossing(id: "square", state: .inside), now: F.date(1_000))
        #expect(!entry.events.contains { $0.kind == .enter }, "the enclosing circle proves nothing of the square")
        #expect(entry.oneShots == [.best], "a fix is asked for to judge the square")
        #expect(tracker.geofences.state(of: "square") == .outside)
        let inside = tracker.handle(.fix(F.fix(east: 0, at: 1_005)), now: F.date(1_005))
        #expect(inside.events.map(\.regionID) == ["square"] && inside.events.map(\.kind) == [.enter])
        #expect(inside.events.map(\.initial) == [false])

        // Between the campus's two buildings: inside their enclosing circle, in neither.
        let between = tracker.handle(.regionCrossing(id: "campus", state: .inside), now: F.date(1_100))
        #expect(between.events.isEmpty)
        #expect(between.oneShots == [.best])
        #expect(tracker.handle(.fix(F.fix(east: 0, at: 1_105)), now: F.date(1_105)).events.isEmpty)
        #expect(tracker.geofences.state(of: "campus") == .outside)

        // Leaving the enclosing circle does prove leaving the square.
        let exit = tracker.handle(.regionCrossing(id: "square", state: .outside), now: F.date(3_000))
        #expect(exit.events.map(\.regionID) == ["square"] && exit.events.map(\.kind) == [.exit])
    }
}
