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

    @Test func noCushionHandsTheBandEdges() throws {
        var (tracker, _) = startedTracker(.move(), regions: [big]) {
            $0.regionCushion = RegionCushion(minimumRadius: 0, minimumDistance: 0, fraction: 0)
        }
        let outside = try #require(handed(tracker.feed(fix(home, t: 1))))
        #expect(outside.radius == 275, "an OS that flips at the boundary is handed the band's inner edge")
    }
}
