import Foundation
import Testing
import WhereaboutsSimulator

@testable import WhereaboutsCore

@Suite("RegionIndex: grid candidates and nearest boundaries")
struct RegionIndexTests {
    /// Checks that `candidates` lists every region brute force finds (and each only once) for
    /// `queries` random points around the box, at several margins.
    private func expectCandidatesCoverBruteForce(
        _ regions: [Region], index: RegionIndex, queries: Int, latitudes: ClosedRange<Double>,
        longitudes: ClosedRange<Double>, margins: [Double], generator: inout SeededGenerator,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for _ in 0..<queries {
            let p = generator.coordinate(latitudes: latitudes, longitudes: longitudes)
            for margin in margins {
                let found = index.candidates(near: p, within: margin).map(\.id)
                #expect(Set(found).count == found.count, "duplicates at \(p)", sourceLocation: sourceLocation)
                let missing = bruteForceWithin(regions, of: p, margin: margin).subtracting(found)
                #expect(missing.isEmpty, "missing \(missing.sorted()) at \(p) within \(margin) m",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func candidatesMatchBruteForceOverThousandsOfRandomRegions() {
        var g = SeededGenerator(seed: 0xC0FFEE)
        let lat = 47.0...47.6, lon = 8.2...9.0
        // Mostly small regions, a few too big for the grid (they go to the wide list).
        var regions = g.regions(3_000, latitudes: lat, longitudes: lon, radii: 20...2_000)
        regions += g.regions(20, latitudes: lat, longitudes: lon, radii: 5_000...30_000)
            .map { region("big-" + $0.id, $0.center, radius: $0.radius) }
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        #expect(index.count == regions.count)
        expectCandidatesCoverBruteForce(
            regions, index: index, queries: 60, latitudes: 46.95...47.65, longitudes: 8.15...9.05,
            margins: [0, 75, 1_000, 6_000], generator: &g)
    }

    @Test func candidatesAreNotEverything() {
        var g = SeededGenerator(seed: 7)
        let regions = g.regions(2_000, latitudes: 47.0...47.6, longitudes: 8.2...9.0, radii: 20...200)
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        let found = index.candidates(near: home, within: 100)
        #expect(found.count < 50, "a 100 m query should touch a handful of cells, got \(found.count)")
    }

    @Test func candidatesNearTheAntimeridian() {
        var g = SeededGenerator(seed: 180)
        let regions = g.regions(1_500, latitudes: -0.3...0.3, longitudes: 179.7...180.3, radii: 10...3_000)
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        #expect(regions.contains { $0.center.longitude < 0 } && regions.contains { $0.center.longitude > 0 })
        expectCandidatesCoverBruteForce(
            regions, index: index, queries: 60, latitudes: -0.3...0.3, longitudes: 179.8...180.2,
            margins: [0, 200, 2_000, 20_000], generator: &g)
    }

    @Test func candidateJustAcrossTheAntimeridian() {
        var index = RegionIndex()
        index.insert(region("east", coord(10, 179.999), radius: 50))
        let found = index.candidates(near: coord(10, -179.999), within: 200).map(\.id)
        #expect(found == ["east"])
    }

    @Test func candidatesNearAPole() {
        var g = SeededGenerator(seed: 90)
        let regions = g.regions(1_500, latitudes: 88.5...89.99, longitudes: -180...180, radii: 10...2_000)
            + g.regions(500, latitudes: 85.0...88.5, longitudes: -180...180, radii: 10...2_000)
                .map { region("lower-" + $0.id, $0.center, radius: $0.radius) }
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        expectCandidatesCoverBruteForce(
            regions, index: index, queries: 40, latitudes: 85.0...90, longitudes: -180...180,
            margins: [0, 500, 5_000], generator: &g)
    }

    @Test func removalAndReinsertion() {
        var g = SeededGenerator(seed: 42)
        let regions = g.regions(1_000, latitudes: 47.2...47.5, longitudes: 8.4...8.7, radii: 20...1_500)
        var index = RegionIndex()
        for r in regions { index.insert(r) }

        let removed = Set(regions.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.id))
        for id in removed { index.remove(id: id) }
        index.remove(id: "no-such-region")
        #expect(index.count == regions.count - removed.count)
        let kept = regions.filter { !removed.contains($0.id) }
        for id in removed { #expect(index[id] == nil) }
        for _ in 0..<30 {
            let p = g.coordinate(latitudes: 47.2...47.5, longitudes: 8.4...8.7)
            let found = Set(index.candidates(near: p, within: 500).map(\.id))
            #expect(found.isDisjoint(with: removed))
            #expect(bruteForceWithin(kept, of: p, margin: 500).isSubset(of: found))
        }

        // Re-insert the removed ones elsewhere: they must be found at their new place only.
        let moved = regions.filter { removed.contains($0.id) }.map {
            region($0.id, point($0.center, metres: 50_000, bearing: 180), radius: $0.radius)
        }
        for r in moved { index.insert(r) }
        #expect(index.count == regions.count)
        #expect(index.regions.map(\.id) == regions.map(\.id).sorted())
        let all = kept + moved
        expectCandidatesCoverBruteForce(
            all, index: index, queries: 30, latitudes: 46.7...47.5, longitudes: 8.4...8.7,
            margins: [0, 800], generator: &g)
        for r in moved.prefix(20) {
            let oldPlace = regions.first { $0.id == r.id }!.center
            let near = Set(index.candidates(near: oldPlace, within: 0).map(\.id))
            #expect(!near.contains(r.id))
        }
    }

    @Test func duplicateIDReplaces() {
        var index = RegionIndex()
        let far = point(home, metres: 30_000, bearing: 45)
        index.insert(region("a", home, radius: 100))
        index.insert(region("a", far, radius: 250))
        #expect(index.count == 1)
        #expect(index["a"]?.radius == 250)
        #expect(index.candidates(near: home, within: 500).isEmpty)
        #expect(index.candidates(near: far, within: 0).map(\.id) == ["a"])
    }

    @Test func wideRegionIsAlwaysACandidate() {
        var index = RegionIndex()
        index.insert(region("country", home, radius: 200_000))
        index.insert(region("pole", coord(89.8, 0), radius: 100))
        #expect(Set(index.candidates(near: point(home, metres: 150_000), within: 10).map(\.id)).contains("country"))
        #expect(Set(index.candidates(near: coord(89.8, 0.001), within: 10).map(\.id)).contains("pole"))
        index.remove(id: "country")
        #expect(!index.candidates(near: home, within: 10).contains { $0.id == "country" })
    }

    @Test(arguments: [1, 3, 19, 20, 57, 400])
    func nearestBoundariesEqualBruteForce(limit: Int) {
        var g = SeededGenerator(seed: UInt64(1_000 + limit))
        let regions = g.regions(300, latitudes: 47.0...47.8, longitudes: 8.0...9.2, radii: 30...3_000)
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        for _ in 0..<15 {
            let p = g.coordinate(latitudes: 46.8...48.0, longitudes: 7.8...9.4)
            let got = index.nearestBoundaries(to: p, limit: limit)
            let expected = bruteForceNearest(regions, to: p, limit: limit)
            #expect(got.map(\.region.id) == expected.map(\.id))
            #expect(zip(got, expected).allSatisfy { abs($0.distance - $1.distance) < 1e-9 })
        }
    }

    @Test func nearestBoundariesFindsRegionsFarAway() {
        var index = RegionIndex()
        index.insert(region("sydney", coord(-33.8688, 151.2093), radius: 1_000))
        index.insert(region("zurich", home, radius: 500))
        let got = index.nearestBoundaries(to: coord(40.7, -74.0), limit: 5)
        #expect(got.map(\.region.id) == ["zurich", "sydney"])
    }

    @Test func boundaryDistanceInsideIsHowFarTheBoundaryIs() {
        var index = RegionIndex()
        index.insert(region("big", home, radius: 3_000))
        index.insert(region("small", point(home, metres: 1_000), radius: 100))
        let got = index.nearestBoundaries(to: home, limit: 2)
        #expect(got.map(\.region.id) == ["small", "big"])
        #expect(abs(got[0].distance - 900) < 1e-6)
        #expect(abs(got[1].distance - 3_000) < 1e-6)
    }

    @Test func nearestBoundariesOfNothing() {
        var index = RegionIndex()
        #expect(index.nearestBoundaries(to: home, limit: 3).isEmpty)
        index.insert(region("a", home, radius: 10))
        #expect(index.nearestBoundaries(to: home, limit: 0).isEmpty)
    }
}
