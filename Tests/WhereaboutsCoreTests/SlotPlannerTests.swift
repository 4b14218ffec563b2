import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Slot planner")
struct SlotPlannerTests {
    @Test("never more than K slots, always the nearest boundaries, refresh reaching the next", arguments: [1, 2, 20])
    func nearest(k: Int) {
        var g = SeededGenerator(seed: 11)
        var index = RegionIndex()
        var regions: [Region] = []
        for i in 0..<300 {
            let p = Geodesy.destination(
                from: TestFixtures.origin, distance: Double.random(in: 0...15_000, using: &g),
                bearing: Double.random(in: 0..<360, using: &g))
            let r = try! Region(id: "r\(i)", center: p, radius: Double.random(in: 100...500, using: &g))
            regions.append(r)
            index.insert(r)
        }
        let plan = SlotPlanner.plan(index, at: TestFixtures.origin, slots: k, minimumRefresh: 150, maximumRefresh: 5000)
        #expect(plan.regions.count == k)
        #expect(plan.regions.last == plan.refresh)
        let brute = regions.map { ($0.id, abs(Geodesy.distance(TestFixtures.origin, $0.center) - $0.radius)) }.sorted { $0.1 < $1.1 }
        #expect(plan.regions.dropLast().map(\.id) == brute.prefix(k - 1).map(\.0))
        let reach = RegionCushion.iOS.leavingRadius(flippingAt: brute[k - 1].1)
        #expect(abs(plan.refresh.radius - min(5000, max(150, reach))) < 0.5)
        #expect(!plan.isStale(at: TestFixtures.origin))
        #expect(plan.isStale(at: TestFixtures.point(plan.refresh.radius + 1)))
    }

    /// Bug: the refresh circle had the raw distance to the nearest boundary left out, so the OS
    /// reported leaving it only max(D/10, 50 m) further, when the device could already be past that
    /// region's band.
    @Test("the OS flips the refresh region to outside where the nearest boundary left out begins", arguments: [300.0, 800, 3000])
    func refreshFlipsAtTheNextBoundary(distance: Double) {
        var index = RegionIndex()
        for i in 0..<20 {
            index.insert(TestFixtures.region("r\(i)", at: TestFixtures.point(distance + 100 + Double(i)), radius: 100))
        }
        let plan = SlotPlanner.plan(index, at: TestFixtures.origin, slots: 20, minimumRefresh: 150, maximumRefresh: 5000)
        let next = try! #require(index.nearestBoundaries(to: TestFixtures.origin, limit: 20).last?.distance)
        #expect(RegionCushion.iOS.flips(inside: true, atDistance: next + 1, radius: plan.refresh.radius))
        #expect(!RegionCushion.iOS.flips(inside: true, atDistance: next - 5, radius: plan.refresh.radius))
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

extension SlotPlannerTests {
    private func index(_ regions: [Region]) -> RegionIndex {
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        return index
    }

    @Test(arguments: [1, 2, 5, 20])
    func plansTheNearestBoundariesAndAReachingRefreshRegion(slots: Int) {
        var g = SeededGenerator(seed: UInt64(slots))
        let regions = g.regions(500, latitudes: 47.30...47.45, longitudes: 8.45...8.65, radii: 30...400)
        let idx = index(regions)
        for _ in 0..<25 {
            let p = g.coordinate(latitudes: 47.28...47.47, longitudes: 8.43...8.67)
            let plan = SlotPlanner.plan(idx, at: p, slots: slots, minimumRefresh: 150, maximumRefresh: 5_000)
            let nearest = bruteForceNearest(regions, to: p, limit: slots)

            #expect(plan.regions.count == slots, "K − 1 regions plus the refresh region")
            #expect(plan.regions.last == plan.refresh)
            #expect(plan.refresh.id == MonitoredRegion.refreshRegionID)
            #expect(plan.refresh.center == p)
            #expect(plan.regions.dropLast().map(\.id) == nearest.prefix(slots - 1).map(\.id))
            for m in plan.regions.dropLast() {
                let r = regions.first { $0.id == m.id }!
                #expect(m.center == r.center && m.radius == r.radius)
            }
            let expectedRadius = min(5_000, max(150, RegionCushion.iOS.leavingRadius(flippingAt: nearest[slots - 1].distance)))
            #expect(abs(plan.refresh.radius - expectedRadius) < 1e-9)
            #expect(plan.nearestBoundary.map { abs($0 - nearest[0].distance) < 1e-9 } == true)
            // No unmonitored boundary lies inside the refresh region unless the minimum forced it.
            if plan.refresh.radius > 150 {
                let monitored = Set(plan.regions.map(\.id))
                for r in regions where !monitored.contains(r.id) {
                    #expect(abs(Geodesy.distance(p, r.center) - r.radius) >= plan.refresh.radius - 1e-9)
                }
            }
        }
    }

    @Test func refreshRadiusIsClampedToTheMinimum() {
        let regions = [
            region("a", point(home, metres: 220), radius: 100),
            region("b", point(home, metres: 130), radius: 100),
        ]
        let plan = SlotPlanner.plan(index(regions), at: home, slots: 2, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions.map(\.id) == ["b", MonitoredRegion.refreshRegionID])
        #expect(plan.refresh.radius == 150, "the left-out boundary (a) is only 120 m away")
        #expect(abs(plan.nearestBoundary! - 30) < 1e-6)
    }

    @Test func refreshRadiusIsClampedToTheMaximum() {
        let regions = [
            region("near", point(home, metres: 500), radius: 100),
            region("far", point(home, metres: 60_000), radius: 100),
        ]
        let plan = SlotPlanner.plan(index(regions), at: home, slots: 2, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions.map(\.id) == ["near", MonitoredRegion.refreshRegionID])
        #expect(plan.refresh.radius == 5_000)
    }

    @Test func refreshRadiusReachesTheFirstLeftOutBoundary() {
        let regions = [
            region("a", point(home, metres: 1_000), radius: 100),
            region("b", point(home, metres: 2_000, bearing: 0), radius: 100),
            region("c", point(home, metres: 3_000, bearing: 180), radius: 100),
        ]
        let plan = SlotPlanner.plan(index(regions), at: home, slots: 3, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions.map(\.id) == ["a", "b", MonitoredRegion.refreshRegionID])
        // The OS flips it to outside where c's boundary begins, 2 900 m out: a tenth beyond its radius.
        #expect(abs(plan.refresh.radius - 2_900 / 1.1) < 1e-6)
    }

    @Test func fewerRegionsThanSlots() {
        let regions = (0..<5).map { region("r\($0)", point(home, metres: Double($0 + 1) * 400), radius: 50) }
        let plan = SlotPlanner.plan(index(regions), at: home, slots: 20, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions.map(\.id) == ["r0", "r1", "r2", "r3", "r4", MonitoredRegion.refreshRegionID])
        #expect(plan.refresh.radius == 5_000, "nothing is left out: the refresh region takes the maximum")
    }

    @Test func exactlySlotsMinusOneRegions() {
        let regions = (0..<3).map { region("r\($0)", point(home, metres: Double($0 + 1) * 400), radius: 50) }
        let plan = SlotPlanner.plan(index(regions), at: home, slots: 4, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions.count == 4)
        #expect(plan.refresh.radius == 5_000)
    }

    @Test func noRegionsAtAll() {
        let plan = SlotPlanner.plan(RegionIndex(), at: home, slots: 20, minimumRefresh: 150, maximumRefresh: 5_000)
        #expect(plan.regions == [plan.refresh])
        #expect(plan.refresh.radius == 5_000)
        #expect(plan.nearestBoundary == nil)
    }

    @Test func isStaleOnlyOutsideTheRefreshRegion() {
        let plan = SlotPlanner.plan(RegionIndex(), at: home, slots: 20, minimumRefresh: 150, maximumRefresh: 1_000)
        #expect(!plan.isStale(at: home))
        #expect(!plan.isStale(at: point(home, metres: 999)))
        #expect(plan.isStale(at: point(home, metres: 1_001, bearing: 123)))
        #expect(plan.isStale(at: coord(-47, -171)))
    }
}

extension SlotPlannerTests {
    /// An engine holding 400 random regions around Zurich, and the generator that drew them.
    private func engineWithRegions(seed: UInt64) -> (SeededGenerator, GeofenceEngine) {
        var g = SeededGenerator(seed: seed)
        var engine = GeofenceEngine()
        engine.add(g.regions(400, latitudes: 47.30...47.45, longitudes: 8.45...8.65, radii: 30...400))
        return (g, engine)
    }

    /// A minute later, a fix at a random place among the regions, judged by `engine`; returns the place.
    private func walk(_ engine: inout GeofenceEngine, _ g: inout SeededGenerator, _ time: inout Date) throws -> Coordinate {
        let p = g.coordinate(latitudes: 47.30...47.45, longitudes: 8.45...8.65)
        time += 60
        _ = engine.evaluate(try Fix(coordinate: p, horizontalAccuracy: 8, timestamp: time))
        return p
    }

    @Test("a plan over the engine, its states read by slot, is the plan over its index with its states looked up by id")
    func engineStatesBySlot() throws {
        var (g, engine) = engineWithRegions(seed: 29)
        var time = Date(timeIntervalSince1970: 1_700_000_000)
        for _ in 0..<40 {
            let p = try walk(&engine, &g, &time)
            let device = (position: p, uncertainty: 30.0)
            let byID = SlotPlanner.plan(
                engine.index, at: p, slots: 20, minimumRefresh: 150, maximumRefresh: 5_000, state: { engine.state(of: $0) }, device: device)
            let bySlot = SlotPlanner.plan(engine, at: p, slots: 20, minimumRefresh: 150, maximumRefresh: 5_000, device: device)
            #expect(bySlot == byID)
            #expect(bySlot.regions.contains { !$0.reportsState }, "some circles fitted to a known state")
        }
    }

    @Test(
        "a refit over the engine, by the slots the plan noted, is the refit by id, also once planned regions were removed and their slots reused"
    )
    func engineRefitBySlot() throws {
        var (g, engine) = engineWithRegions(seed: 31)
        var time = Date(timeIntervalSince1970: 1_700_000_000)
        var reused = 0
        for round in 0..<30 {
            let p = try walk(&engine, &g, &time)
            let plan = SlotPlanner.plan(engine, at: p, slots: 20, minimumRefresh: 150, maximumRefresh: 5_000, device: (p, 30))
            if round % 3 == 0 {
                // Two planned regions go, and two new ones may take their slots.
                let gone = plan.regions.prefix(2).map(\.id)
                engine.remove(gone)
                engine.add(gone.map { try! Region(id: $0 + "-new-\(round)", center: p, radius: 150) })
                reused += gone.filter { plan.slots.prefix(2).contains(engine.index.slot(of: $0 + "-new-\(round)") ?? -1) }.count
            }
            let q = Geodesy.destination(from: p, distance: 40, bearing: 90)
            time += 10
            _ = engine.evaluate(try Fix(coordinate: q, horizontalAccuracy: 8, timestamp: time))
            let bySlot = SlotPlanner.refit(plan, engine, cushion: .iOS, device: (q, 30))
            let byID = SlotPlanner.refit(plan, engine.index, cushion: .iOS, state: { engine.state(of: $0) }, device: (q, 30))
            #expect(bySlot == byID)
        }
        #expect(reused > 0, "a new region took a removed one's slot")
    }
}
