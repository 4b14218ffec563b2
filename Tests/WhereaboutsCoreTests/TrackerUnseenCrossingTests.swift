import Foundation
import Testing
import WhereaboutsCore

@Suite("Crossings fixes missed: an OS report after a break in fixes is applied, not refuted by a fix on the other side")
struct TrackerUnseenCrossingTests {
    typealias F = TestFixtures

    /// A continuous tracker watching region `a` (centre 2 km east) after a fix at the origin.
    static func started(radius: Double) -> Tracker {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .continuous()), regions: [F.region("a", at: F.point(2000), radius: radius)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, at: 1)), now: F.date(1))
        return tracker
    }

    @Test("after a break, the OS's late entry of a region the device has already left reports the enter, then the exit")
    func passWhileNoFixWatched() {
        var tracker = Self.started(radius: 300)
        let back = tracker.handle(.fix(F.fix(east: 2500, at: 1000)), now: F.date(1000))
        #expect(back.events.isEmpty, "200 m past the region: the pass happened while no fix watched")
        let report = tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(1060))
        #expect(report.events.map(\.kind) == [.enter])
        let next = tracker.handle(.fix(F.fix(east: 2505, at: 1061)), now: F.date(1061))
        #expect(next.events.map(\.kind) == [.exit])
    }

    @Test("while fixes watched the whole time the OS takes to report, a contradicting fix still outweighs the report")
    func watchedThroughout() {
        var tracker = Self.started(radius: 300)
        for t in stride(from: 10.0, through: 300, by: 10) {
            #expect(tracker.handle(.fix(F.fix(east: 2500, at: t)), now: F.date(t)).events.isEmpty)
        }
        #expect(tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(305)).events.isEmpty)
    }

    @Test("a region too small for the OS's circle to prove an entry keeps yielding to the fix after a break")
    func smallRegionYields() {
        var tracker = Self.started(radius: 40)
        _ = tracker.handle(.fix(F.fix(east: 2100, at: 1000)), now: F.date(1000))
        #expect(tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(1060)).events.isEmpty)
        #expect(tracker.geofences.state(of: "a") == .outside)
    }

    @Test(
        "the OS's first state of a region the fixes left undetermined: inside is taken only from a circle within the region; a fix decides a small one, with no false exit"
    )
    func firstStateNeedsTheRegionsOwnCircle() throws {
        // The device 20 m outside the small regions' boundaries and the large one's, with a fix too coarse to decide any.
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .manual),
            regions: [
                F.region("small", at: F.point(60), radius: 40), F.region("north", at: F.point(60, bearing: 0), radius: 40),
                F.region("large", at: F.point(-320), radius: 300),
            ])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 60, at: 1)), now: F.date(1))
        #expect(["small", "north", "large"].allSatisfy { tracker.geofences.state(of: $0) == nil })
        let handed = try #require(tracker.slotPlan?.regions).map(\.id)
        #expect(["small", "north", "large"].allSatisfy(handed.contains))

        // iOS judges the 40 m region as a 100 m circle: within it, the device may be outside the region.
        let small = tracker.handle(.regionCrossing(id: "small", state: .inside), now: F.date(2))
        #expect(small.events.isEmpty)
        #expect(small.oneShots == [.best], "a fix is asked for to decide the region")
        #expect(tracker.geofences.state(of: "small") == nil)

        // An "outside" from a circle covering the region is taken, with nothing to report.
        let outside = tracker.handle(.regionCrossing(id: "north", state: .outside), now: F.date(3))
        #expect(outside.events.isEmpty && outside.oneShots.isEmpty)
        #expect(tracker.geofences.state(of: "north") == .outside)

        // A GPS fix decides the small region.
        let decided = tracker.handle(.fix(F.fix(east: 0, at: 4)), now: F.date(4))
        #expect(decided.events.isEmpty, "the fix finds the device outside, as it always was: no exit to report")
        #expect(tracker.geofences.state(of: "small") == .outside)

        // The 300 m region is judged as itself: its first state is taken, as the initial state.
        let large = tracker.handle(.regionCrossing(id: "large", state: .inside), now: F.date(5))
        #expect(large.events.map(\.kind) == [.enter] && large.events.allSatisfy(\.initial))
        #expect(tracker.geofences.state(of: "large") == .inside)
    }
}
