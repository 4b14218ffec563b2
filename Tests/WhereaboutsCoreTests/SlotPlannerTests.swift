import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsSimulator

@Suite("Slot planner")
struct SlotPlannerTests {
    @Test("never more than K slots, always the nearest boundaries, refresh reaching the next", arguments: [1, 2, 20])
    func nearest(k: Int) {
        var g = SeededGenerator(seed: 11)
        var index = RegionIndex()
        var regions: [Region] = []
        for i in 0..<300 {
            let p = Geodesy.destination(from: TestFixtures.origin, distance: Double.random(in: 0...15_000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let r = try! Region(id: "r\(i)", center: p, radius: Double.random(in: 100...500, using: &g))
            regions.append(r)
            index.insert(r)
        }
        let plan = SlotPlanner.plan(index, at: TestFixtures.origin, slots: k, minimumRefresh: 150, maximumRefresh: 5000)
        #expect(plan.regions.count == k)
        #expect(plan.regions.last == plan.refresh)
        let brute = regions.map { ($0.id, abs(Geodesy.distance(TestFixtures.origin, $0.center) - $0.radius)) }.sorted { $0.1 < $1.1 }
        #expect(plan.regions.dropLast().map(\.id) == brute.prefix(k - 1).map(\.0))
        #expect(abs(plan.refresh.radius - min(5000, max(150, brute[k - 1].1))) < 0.5)
        #expect(!plan.isStale(at: TestFixtures.origin))
        #expect(plan.isStale(at: TestFixtures.point(plan.refresh.radius + 1)))
    }

    @Test("fewer regions than slots: all of them and the largest refresh region")
    func fewRegions() {
        var index = RegionIndex()
        index.insert(TestFixtures.region("a", at: TestFixtures.point(1000), radius: 100))
        let plan = SlotPlanner.plan(index, at: TestFixtures.origin, slots: 20, minimumRefresh: 150, maximumRefresh: 5000)
        #expect(plan.regions.map(\.id) == ["a", MonitoredRegion.refreshRegionID])
        #expect(plan.refresh.radius == 5000)
        #expect(plan.nearestBoundary.map { abs($0 - 900) < 1 } == true)
    }
}
