import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Suspended cruise: the app sleeps while the OS settles every region the device can reach before it wakes")
struct TrackerSuspendedCruiseTests {
    typealias F = TestFixtures

    /// A tracker of `regions` started on `efficient` (which leaves circles of 100 m or more to the
    /// OS), with `slots` OS slots.
    static func started(regions: [Region], slots: Int = 20) -> Tracker {
        let configuration = TrackerConfiguration(mode: .adaptive(.efficient), slotCount: slots)
        var tracker = Tracker(configuration: configuration, regions: regions)
        _ = tracker.handle(.command(.start), now: F.date(0))
        return tracker
    }

    static func activity(_ kind: MotionActivity.Kind) -> TrackerInput {
        .activity(MotionActivity(kind: kind, confidence: .high, start: F.date(0)))
    }

    /// Two fixes at the origin while moving as `kind`: the first plans the slots after it plans its
    /// positioning, the second finds them handed. Returns the second's effects.
    static func settle(_ tracker: inout Tracker, _ kind: MotionActivity.Kind = .walking) -> [TrackerEffect] {
        _ = tracker.handle(activity(kind), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        return tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 3)), now: F.date(3))
    }

    /// A trusted circle whose boundary is 60 m east of the origin, and a small one whose boundary is
    /// `smallGap` metres west of it.
    static func regions(smallGap: Double) -> [Region] {
        [F.region("large", at: F.point(260), radius: 200), F.region("small", at: F.point(smallGap + 50, bearing: 270), radius: 50)]
    }

    @Test("the significant-change monitor wakes a suspended app within 500 m, or five minutes at the top speed")
    func wakeDistance() {
        #expect(Tracker.suspendedCruiseDistance(speed: 1) == 500)
        #expect(Tracker.suspendedCruiseDistance(speed: 2.5) == 750)
        #expect(Tracker.suspendedCruiseDistance(speed: 40) == 12_000)
    }

    @Test(
        "a walker whose only region the OS would not settle is beyond its wake distance suspends the app on significant-change monitoring; nearer, the app cruises on cell positions",
        arguments: [(2000.0, true), (700, false)])
    func suspendsBeyondTheWakeDistance(smallGap: Double, suspends: Bool) {
        var tracker = Self.started(regions: Self.regions(smallGap: smallGap))
        _ = Self.settle(&tracker)
        let request = tracker.appliedRequest
        // 40 m of accuracy and 10 s at 2.5 m/s: 700 m leaves 635 m, short of 750 m.
        #expect((tracker.clearance?.suspends == true) == suspends)
        #expect(request?.standard?.accuracy == (suspends ? nil : .kilometer))
        #expect(request?.significantChange == suspends)
        #expect(request?.visits == true && request?.motionActivity == true)
        if suspends { #expect(abs((tracker.clearance?.metres ?? 0) - (2000 - 65)) < 0.01) }
    }

    @Test(
        "a vehicle, which five minutes at 40 m/s take 12 km, keeps the app running short of that; with no region the OS would not settle it suspends"
    )
    func vehicle() {
        var near = Self.started(regions: Self.regions(smallGap: 5000))
        _ = Self.settle(&near, .automotive)
        #expect(near.clearance?.suspends == false, "a running cruise")

        var trusted = Self.started(regions: [F.region("large", at: F.point(260), radius: 200)])
        _ = Self.settle(&trusted, .automotive)
        #expect(trusted.clearance?.suspends == true)
    }

    @Test(
        "beyond the nearest boundaries the planner reads, a region the OS would not settle within the wake distance is still found",
        arguments: [(500.0, false), (1000, true)])
    func searchBeyondTheNearest(smallGap: Double, suspends: Bool) {
        // Twelve trusted circles around the device: with 3 slots the planner reads the 11 nearest.
        let ring = (0..<12).map { F.region("ring\($0)", at: F.point(300 + Double($0) * 5, bearing: Double($0) * 30), radius: 200) }
        var tracker = Self.started(regions: ring + [F.region("small", at: F.point(smallGap + 50, bearing: 15), radius: 50)], slots: 3)
        _ = Self.settle(&tracker)
        #expect((tracker.clearance?.suspends == true) == suspends, "small region's boundary \(smallGap) m away")
    }

    @Test("the fix that suspends the app hands the OS the regions nearest to it, though it is still within the refresh region")
    func handsTheNearestWhenSuspending() {
        let line = (0..<6).map { F.region("r\($0)", at: F.point(Double($0) * 400 - 1000, bearing: 0), radius: 150) }
        var tracker = Self.started(regions: line, slots: 3)
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        let first = tracker.slotPlan
        #expect(tracker.clearance == nil, "no cruise before a motion report")
        _ = tracker.handle(Self.activity(.walking), now: F.date(3))
        let moved = F.fix(F.point(120), accuracy: 40, at: 60)
        #expect(first?.isStale(at: moved.coordinate) == false)
        _ = tracker.handle(.fix(moved), now: F.date(60))
        #expect(tracker.clearance?.suspends == true)
        #expect(tracker.slotPlan?.refresh.center == moved.coordinate)
    }

    @Test("a faster activity that can pass the room left before the significant-change monitor wakes the app ends the suspended cruise")
    func fasterActivityEndsSuspension() {
        var tracker = Self.started(regions: Self.regions(smallGap: 2000))
        _ = Self.settle(&tracker)
        #expect(tracker.clearance?.suspends == true)
        let faster = tracker.handle(Self.activity(.cycling), now: F.date(12))
        // 1935 m less 9 s walked leaves 1912.5 m; at 8 m/s five minutes take 2400 m.
        #expect(tracker.clearance == nil)
        #expect(faster.locationRequests.last?.standard?.accuracy == .hundredMeters)
    }

    @Test("once the OS says it cannot monitor some region, nothing is left to it and the app stays awake")
    func monitoringFailure() {
        var tracker = Self.started(regions: Self.regions(smallGap: 2000))
        _ = Self.settle(&tracker)
        #expect(tracker.clearance?.suspends == true)
        tracker.monitoringFailed(for: nil)
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 4)), now: F.date(4))
        #expect(tracker.clearance?.suspends != true)
    }

    @Test("a policy that leaves nothing to the OS never suspends the app")
    func noTrustNoSuspension() {
        var tracker = TrackerCruiseTests.started(regions: [F.region("far", at: F.point(5000), radius: 100)])
        _ = tracker.handle(Self.activity(.walking), now: F.date(1))
        let effects = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        #expect(tracker.clearance?.suspends == false)
        #expect(effects.locationRequests.last?.standard?.accuracy == .kilometer)
    }
}
