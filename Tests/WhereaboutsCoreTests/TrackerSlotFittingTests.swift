import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Tracker: circles handed to the OS follow each region's state")
struct TrackerSlotFittingTests {
    private let big = region("big", point(home, metres: 2_000), radius: 300)

    private func handed(_ effects: [TrackerEffect]) -> MonitoredRegion? {
        effects.monitors.last?.first { $0.id == "big" }
    }

    @Test func fixesOutsideHandTheEnteringCircleAndFixesInsideTheLeavingOne() throws {
        var (tracker, _) = startedTracker(.move(), regions: [big])
        let outside = try #require(handed(tracker.feed(fix(home, t: 1))))
        #expect(outside == MonitoredRegion(id: "big", center: big.center, radius: 325, reportsState: false))
        #expect(tracker.feed(fix(point(home, metres: 100), t: 20)).monitors.isEmpty, "nothing changed: the OS keeps its circle")
        let entered = tracker.feed(fix(big.center, t: 300))
        #expect(entered.events.map(\.kind) == [.enter])
        #expect(handed(entered) == MonitoredRegion(id: "big", center: big.center, radius: 275, reportsState: false))
    }

    @Test func anOSEnterWithoutAFreshPositionHandsThePlainCircleAndAsksItsState() throws {
        var (tracker, _) = startedTracker(.significant, regions: [big])
        _ = tracker.feed(fix(home, acc: 50, t: 1))
        let crossing = tracker.cross("big", .inside, at: 600)
        #expect(crossing.events.map(\.kind) == [.enter])
        let circle = try #require(handed(crossing))
        #expect(circle == MonitoredRegion(id: "big", center: big.center, radius: 300), "the last fix is 600 s old, 2 km away")
        let inside = tracker.feed(fix(big.center, acc: 20, t: 620))
        #expect(handed(inside) == MonitoredRegion(id: "big", center: big.center, radius: 275, reportsState: false))
    }

    @Test func aRegionNewToThePlanIsFittedOnlyWhileTheLastFixStillPlacesTheDevice() throws {
        let near = region("near", point(home, metres: 1_000), radius: 100)
        func planAfterRemovingNear(at t: TimeInterval) throws -> MonitoredRegion? {
            var (tracker, _) = startedTracker(.move(), regions: [near, big]) { $0.slotCount = 2 }
            let first = try #require(tracker.feed(fix(home, t: 1)).monitors.first)
            #expect(first.map(\.id) == ["near", MonitoredRegion.refreshRegionID])
            return handed(tracker.send(.removeRegions(["near"]), at: t))
        }
        #expect(
            try planAfterRemovingNear(at: 2) == MonitoredRegion(id: "big", center: big.center, radius: 325, reportsState: false),
            "1 s after a fix 2 km away, at most 40 m travelled: wholly outside the 325 m circle")
        #expect(
            try planAfterRemovingNear(at: 60) == MonitoredRegion(id: "big", center: big.center, radius: 300),
            "59 s at a vehicle's 40 m/s could have brought the device inside it: the OS is asked")
    }

    @Test func noCushionHandsTheBandEdges() throws {
        var (tracker, _) = startedTracker(.move(), regions: [big]) {
            $0.regionCushion = RegionCushion(minimumRadius: 0, minimumDistance: 0, fraction: 0)
        }
        let outside = try #require(handed(tracker.feed(fix(home, t: 1))))
        #expect(outside.radius == 275, "an OS that flips at the boundary is handed the band's inner edge")
    }
}
