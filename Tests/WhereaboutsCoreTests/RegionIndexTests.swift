import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Region index")
struct RegionIndexTests {
    private func randomRegions(count: Int, around center: Coordinate, spread: Double, seed: UInt64) -> [Region] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            let p = Geodesy.destination(
                from: center, distance: Double.random(in: 0...spread, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            return try! Region(id: "r\(i)", center: p, radius: Double.random(in: 1...3000, using: &g))
        }
    }

    private func bruteCandidates(_ regions: [Region], _ point: Coordinate, _ margin: Double) -> Set<String> {
        Set(regions.filter { Geodesy.distance(point, $0.center) - $0.radius <= margin }.map(\.id))
    }

    @Test(
        "candidates include every region within the margin",
        arguments: [(48.137, 11.575), (0.0, 179.99), (0.0, -179.99), (89.3, 10.0), (-89.9, 0.0)])
    func candidatesCoverBruteForce(lat: Double, lon: Double) throws {
        let center = try Coordinate(latitude: lat, longitude: lon)
        let regions = randomRegions(count: 2000, around: center, spread: 30_000, seed: 7)
        var index = RegionIndex()
        for region in regions { index.insert(region) }
        var g = SeededGenerator(seed: 9)
        for _ in 0..<50 {
            let p = Geodesy.destination(
                from: center, distance: Double.random(in: 0...20_000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let margin = Double.random(in: 0...500, using: &g)
            let found = Set(index.candidates(near: p, within: margin).map(\.id))
            #expect(bruteCandidates(regions, p, margin).isSubset(of: found))
        }
    }

    @Test(
        "containment right at the edges equals the great-circle answer at any latitude",
        arguments: [(48.137, 11.575), (78.9, 0.0), (84.0, 30.0), (88.7, 120.0), (0.0, 179.995), (-60.0, -179.995)])
    func containmentAtEdges(lat: Double, lon: Double) throws {
        let center = try Coordinate(latitude: lat, longitude: lon)
        let regions = randomRegions(count: 1500, around: center, spread: 15_000, seed: 11).map {
            try! Region(id: $0.id, center: $0.center, radius: min($0.radius * 2, 6000))
        }
        var index = RegionIndex()
        for region in regions { index.insert(region) }
        var g = SeededGenerator(seed: 12)
        for _ in 0..<400 {
            let region = regions[Int.random(in: 0..<regions.count, using: &g)]
            let accuracy = Double.random(in: 0...75, using: &g)
            let p = Geodesy.destination(
                from: region.center, distance: region.radius + accuracy + Double.random(in: -1...1, using: &g),
                bearing: Double.random(in: 0..<360, using: &g))
            let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= accuracy }.map(\.id).sorted()
            #expect(index.containing(p, accuracy: accuracy) == brute)
        }
    }

    @Test("reserving, shrinking to fit and growing again keep every answer")
    func reserveShrinkAndGrow() {
        var regions = randomRegions(count: 3000, around: TestFixtures.origin, spread: 6000, seed: 13)
        var index = RegionIndex()
        index.reserveCapacity(for: regions)
        for region in regions { index.insert(region) }
        index.shrinkToFit()
        for i in stride(from: 0, to: 3000, by: 3) { index.remove(id: "r\(i)") }
        let added = randomRegions(count: 600, around: TestFixtures.origin, spread: 6000, seed: 14).map {
            try! Region(id: "n\($0.id)", center: $0.center, radius: $0.radius)
        }
        for region in added { index.insert(region) }
        regions = regions.enumerated().filter { $0.offset % 3 != 0 }.map(\.element) + added
        #expect(index.count == regions.count)
        var g = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let p = Geodesy.destination(
                from: TestFixtures.origin, distance: Double.random(in: 0...7000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let accuracy = Double.random(in: 0...75, using: &g)
            let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= accuracy }.map(\.id).sorted()
            #expect(index.containing(p, accuracy: accuracy) == brute)
        }
    }

    @Test("huge pages, and cells read four entries at a time, keep every answer")
    func hugePagesAndGroups() {
        // 40 000 regions: the region array (about 3 MB) spans whole huge pages.
        var regions = randomRegions(count: 40_000, around: TestFixtures.origin, spread: 20_000, seed: 16).map {
            try! Region(id: $0.id, center: $0.center, radius: max(1, $0.radius / 10))
        }
        var index = RegionIndex()
        index.reserveCapacity(for: regions)
        for region in regions { index.insert(region) }
        index.shrinkToFit()
        index.useHugePages()
        var g = SeededGenerator(seed: 17)
        func check() {
            for _ in 0..<60 {
                let p = Geodesy.destination(
                    from: TestFixtures.origin, distance: Double.random(in: 0...20_000, using: &g),
                    bearing: Double.random(in: 0..<360, using: &g))
                let accuracy = Double.random(in: 0...75, using: &g)
                let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= accuracy }.map(\.id).sorted()
                #expect(index.containing(p, accuracy: accuracy) == brute)
            }
        }
        check()
        // Growing afterwards moves cells to blocks on ordinary pages.
        let added = randomRegions(count: 500, around: TestFixtures.origin, spread: 20_000, seed: 18).map {
            try! Region(id: "n\($0.id)", center: $0.center, radius: max(1, $0.radius / 10))
        }
        for region in added { index.insert(region) }
        regions += added
        check()
    }

    @Test("nearest boundaries equal brute force", arguments: [1, 5, 20])
    func nearest(k: Int) {
        let regions = randomRegions(count: 1500, around: TestFixtures.origin, spread: 20_000, seed: 3)
        var index = RegionIndex()
        for region in regions { index.insert(region) }
        var g = SeededGenerator(seed: 4)
        for _ in 0..<30 {
            let p = Geodesy.destination(
                from: TestFixtures.origin, distance: Double.random(in: 0...25_000, using: &g),
                bearing: Double.random(in: 0..<360, using: &g))
            let brute = regions.map { ($0.id, abs(Geodesy.distance(p, $0.center) - $0.radius)) }.sorted { $0.1 < $1.1 }.prefix(k)
            let found = index.nearestBoundaries(to: p, limit: k)
            #expect(found.map(\.region.id) == brute.map(\.0))
        }
    }

    @Test("remove, re-insert and duplicate ids")
    func mutation() {
        var index = RegionIndex()
        index.insert(TestFixtures.region("a", radius: 100))
        index.insert(TestFixtures.region("b", at: TestFixtures.point(5000), radius: 100))
        #expect(index.count == 2)
        index.insert(TestFixtures.region("a", at: TestFixtures.point(10_000), radius: 50))
        #expect(index.count == 2)
        #expect(index["a"]?.radius == 50)
        #expect(!index.candidates(near: TestFixtures.origin, within: 10).contains { $0.id == "a" })
        index.remove(id: "b")
        index.remove(id: "missing")
        #expect(index.count == 1)
        #expect(index.candidates(near: TestFixtures.point(5000), within: 10).isEmpty)
        index.insert(TestFixtures.region("b", radius: 100))
        #expect(index.candidates(near: TestFixtures.origin, within: 0).map(\.id) == ["b"])
    }

    @Test("a cell listing more regions than its 16-bit stripe starts can count still answers exactly")
    func overfullCell() throws {
        // 65 600 circles of 1 m on one line of latitude in the middle of one 0.01° cell, then a few
        // in the next stripe north, where the cell's 16-bit stripe starts have saturated.
        var regions = (0..<65_600).map { i in
            try! Region(id: "l\(i)", center: Coordinate(latitude: 48.135, longitude: 11.5725 + 0.005 * Double(i) / 65_600), radius: 1)
        }
        var index = RegionIndex()
        for region in regions { index.insert(region) }
        var g = SeededGenerator(seed: 21)
        let north = (0..<200).map { i in
            try! Region(
                id: "n\(i)", center: Coordinate(latitude: 48.1365, longitude: Double.random(in: 11.5725...11.5775, using: &g)), radius: 30)
        }
        for region in north { index.insert(region) }
        regions += north
        func check() throws {
            for longitude in [11.5725, 11.574, 11.5772, 11.5775, 11.5776] {
                for latitude in [48.135, 48.13501, 48.1365, 48.1362] {
                    let p = try Coordinate(latitude: latitude, longitude: longitude)
                    let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= 3 }.map(\.id).sorted()
                    #expect(index.containing(p, accuracy: 3) == brute, "at \(latitude), \(longitude)")
                }
            }
        }
        try check()
        // Back under 65 535 entries, the stripe starts are counted exactly again.
        for region in regions.prefix(300) { index.remove(id: region.id) }
        regions.removeFirst(300)
        try check()
    }
}

extension RegionIndexTests {
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
                #expect(
                    missing.isEmpty, "missing \(missing.sorted()) at \(p) within \(margin) m",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func candidatesMatchBruteForceOverThousandsOfRandomRegions() {
        var g = SeededGenerator(seed: 0xC0FFEE)
        let lat = 47.0...47.6
        let lon = 8.2...9.0
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
        let regions =
            g.regions(1_500, latitudes: 88.5...89.99, longitudes: -180...180, radii: 10...2_000)
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
        var regions = g.regions(300, latitudes: 47.0...47.8, longitudes: 8.0...9.2, radii: 30...3_000)
        // Polygons too: strips and blocks, some far longer than wide, and pairs of them as one region.
        var probes: [Coordinate] = []
        for i in 0..<40 {
            let center = g.coordinate(latitudes: 47.0...47.8, longitudes: 8.0...9.2)
            let width = Double.random(in: 30...5_000, using: &g)
            let height = Double.random(in: 20...300, using: &g)
            let other = i % 4 == 0 ? [point(center, metres: Double.random(in: 500...3_000, using: &g), bearing: 45)] : []
            regions.append(Self.rectangles(String(format: "p%02d", i), [center] + other, width: width, height: height))
            // A point just inside the north edge, deep inside the enclosing circle.
            probes.append(Geodesy.destination(from: center, distance: height / 2 - Double.random(in: 1...15, using: &g), bearing: 0))
        }
        var index = RegionIndex()
        for r in regions { index.insert(r) }
        for _ in 0..<15 { probes.append(g.coordinate(latitudes: 46.8...48.0, longitudes: 7.8...9.4)) }
        for p in probes {
            let got = index.nearestBoundaries(to: p, limit: limit)
            let expected = bruteForceNearest(regions, to: p, limit: limit)
            #expect(got.map(\.region.id) == expected.map(\.id))
            #expect(zip(got, expected).allSatisfy { abs($0.distance - $1.distance) < 1e-9 })
        }
    }

    /// One polygon region of rectangles `width` metres east–west by `height` north–south, centred on `centers`.
    static func rectangles(_ id: String, _ centers: [Coordinate], width: Double, height: Double) -> Region {
        let rings = centers.map { c -> [[Coordinate]] in
            let dLat = height / 2 / Geodesy.metresPerDegreeLatitude
            let dLon = width / 2 / (Geodesy.metresPerDegreeLatitude * cos(c.latitude * .pi / 180))
            return [[(-1.0, -1.0), (1, -1), (1, 1), (-1, 1), (-1, -1)].map { coord(c.latitude + $0.1 * dLat, c.longitude + $0.0 * dLon) }]
        }
        return try! Region(id: id, polygons: rings)
    }

    @Test("a polygon whose enclosing circle holds the point deep inside, its own edge 10 m away, is the nearest boundary")
    func nearestBoundariesFindPolygonDeepInItsCircle() {
        let strip = Self.rectangles("strip", [home], width: 2_000, height: 100)
        let p = Geodesy.destination(from: home, distance: 40, bearing: 0)
        var index = RegionIndex()
        index.insert(strip)
        var regions = [strip]
        for i in 0..<20 {
            let circle = region(
                String(format: "c%02d", i), point(p, metres: 200 + 10 * Double(i), bearing: -45 + 90 * Double(i) / 19), radius: 50)
            index.insert(circle)
            regions.append(circle)
        }
        let got = index.nearestBoundaries(to: p, limit: 20)
        #expect(got.first?.region.id == "strip")
        #expect(abs((got.first?.distance ?? 0) - 10) < 0.5)
        #expect(got.map(\.region.id) == bruteForceNearest(regions, to: p, limit: 20).map(\.id))
        var one = RegionIndex()
        one.insert(strip)
        one.insert(region("near", point(p, metres: 200, bearing: 0), radius: 50))
        #expect(one.nearestBoundaries(to: p, limit: 1).map(\.region.id) == ["strip"])
    }

    @Test("a cell size that does not divide 360° is rounded to one that does, so regions are found across the antimeridian")
    func cellSizeDividesTheTurn() {
        var index = RegionIndex(cellDegrees: 0.007)
        let turn = (360 / index.cellDegrees).rounded()
        #expect(turn == 51_429 && turn * index.cellDegrees == 360)
        #expect(RegionIndex().cellDegrees == 0.01)
        index.insert(region("am", coord(0, 179.999), radius: 400))
        #expect(index.candidates(near: coord(0, -179.998), within: 0).map(\.id) == ["am"])
        // Every longitude inside the region, on either side of the antimeridian.
        var missed = 0
        for i in 0...2_000 {
            let p = Coordinate(normalizingLatitude: 0, longitude: 179.999 + (Double(i) / 1_000 - 1) * 0.0035)
            guard Geodesy.distance(p, coord(0, 179.999)) < 399 else { continue }
            if !index.candidates(near: p, within: 0).contains(where: { $0.id == "am" }) { missed += 1 }
        }
        #expect(missed == 0)
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
