import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsSimulator

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

    @Test("candidates include every region within the margin",
          arguments: [(48.137, 11.575), (0.0, 179.99), (0.0, -179.99), (89.3, 10.0), (-89.9, 0.0)])
    func candidatesCoverBruteForce(lat: Double, lon: Double) throws {
        let center = try Coordinate(latitude: lat, longitude: lon)
        let regions = randomRegions(count: 2000, around: center, spread: 30_000, seed: 7)
        var index = RegionIndex()
        regions.forEach { index.insert($0) }
        var g = SeededGenerator(seed: 9)
        for _ in 0..<50 {
            let p = Geodesy.destination(from: center, distance: Double.random(in: 0...20_000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let margin = Double.random(in: 0...500, using: &g)
            let found = Set(index.candidates(near: p, within: margin).map(\.id))
            #expect(bruteCandidates(regions, p, margin).isSubset(of: found))
        }
    }

    @Test("containment right at the edges equals the great-circle answer at any latitude",
          arguments: [(48.137, 11.575), (78.9, 0.0), (84.0, 30.0), (88.7, 120.0), (0.0, 179.995), (-60.0, -179.995)])
    func containmentAtEdges(lat: Double, lon: Double) throws {
        let center = try Coordinate(latitude: lat, longitude: lon)
        let regions = randomRegions(count: 1500, around: center, spread: 15_000, seed: 11).map {
            try! Region(id: $0.id, center: $0.center, radius: min($0.radius * 2, 6000))
        }
        var index = RegionIndex()
        regions.forEach { index.insert($0) }
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
        regions.forEach { index.insert($0) }
        index.shrinkToFit()
        for i in stride(from: 0, to: 3000, by: 3) { index.remove(id: "r\(i)") }
        let added = randomRegions(count: 600, around: TestFixtures.origin, spread: 6000, seed: 14).map {
            try! Region(id: "n\($0.id)", center: $0.center, radius: $0.radius)
        }
        added.forEach { index.insert($0) }
        regions = regions.enumerated().filter { $0.offset % 3 != 0 }.map(\.element) + added
        #expect(index.count == regions.count)
        var g = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let p = Geodesy.destination(from: TestFixtures.origin, distance: Double.random(in: 0...7000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            let accuracy = Double.random(in: 0...75, using: &g)
            let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= accuracy }.map(\.id).sorted()
            #expect(index.containing(p, accuracy: accuracy) == brute)
        }
    }

    @Test("huge pages, and cells read four entries at a time, keep every answer")
    func hugePagesAndGroups() {
        // 40 000 regions: the region array (about 3 MB) spans whole huge pages.
        var regions = randomRegions(count: 40_000, around: TestFixtures.origin, spread: 20_000, seed: 16).map {
            try! Region(id: $0.id, center: $0.center, radius: $0.radius / 10)
        }
        var index = RegionIndex()
        index.reserveCapacity(for: regions)
        regions.forEach { index.insert($0) }
        index.shrinkToFit()
        index.useHugePages()
        var g = SeededGenerator(seed: 17)
        func check() {
            for _ in 0..<60 {
                let p = Geodesy.destination(from: TestFixtures.origin, distance: Double.random(in: 0...20_000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
                let accuracy = Double.random(in: 0...75, using: &g)
                let brute = regions.filter { Geodesy.distance(p, $0.center) - $0.radius <= accuracy }.map(\.id).sorted()
                #expect(index.containing(p, accuracy: accuracy) == brute)
            }
        }
        check()
        // Growing afterwards moves cells to blocks on ordinary pages.
        let added = randomRegions(count: 500, around: TestFixtures.origin, spread: 20_000, seed: 18).map {
            try! Region(id: "n\($0.id)", center: $0.center, radius: $0.radius / 10)
        }
        added.forEach { index.insert($0) }
        regions += added
        check()
    }

    @Test("nearest boundaries equal brute force", arguments: [1, 5, 20])
    func nearest(k: Int) {
        let regions = randomRegions(count: 1500, around: TestFixtures.origin, spread: 20_000, seed: 3)
        var index = RegionIndex()
        regions.forEach { index.insert($0) }
        var g = SeededGenerator(seed: 4)
        for _ in 0..<30 {
            let p = Geodesy.destination(from: TestFixtures.origin, distance: Double.random(in: 0...25_000, using: &g), bearing: Double.random(in: 0..<360, using: &g))
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
        regions.forEach { index.insert($0) }
        var g = SeededGenerator(seed: 21)
        let north = (0..<200).map { i in
            try! Region(id: "n\(i)", center: Coordinate(latitude: 48.1365, longitude: Double.random(in: 11.5725...11.5775, using: &g)), radius: 30)
        }
        north.forEach { index.insert($0) }
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
