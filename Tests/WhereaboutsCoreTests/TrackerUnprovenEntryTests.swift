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
}
