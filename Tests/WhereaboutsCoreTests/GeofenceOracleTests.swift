import Foundation
import Testing
import WhereaboutsCore

/// ``GeofenceEngine`` against ``ReferenceGeofenceEngine`` on seeded random inputs: many regions
/// (circles and polygons, some with loitering delays, some silent on entry or exit), fixes of every
/// accuracy from GPS to cell, OS crossings with and without streaming fixes, region changes, forgotten
/// states, dwells, and relaunches that restore the saved states into new engines.
@Suite("Geofence engine equals the reference engine")
struct GeofenceOracleTests {
    typealias F = TestFixtures

    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]
    static let steps = 1500

    @Test("seeded random inputs give the same events, states, undecided regions and saved states", arguments: seeds)
    func randomInputs(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        func place(within metres: Double = 1500) -> Coordinate {
            F.point(Double.random(in: 0...metres, using: &g), bearing: Double.random(in: 0..<360, using: &g))
        }
        func randomRegion(_ id: String) throws -> Region {
            let loitering: Double? = Bool.random(using: &g) ? Double.random(in: 30...600, using: &g) : nil
            let entry = Int.random(in: 0..<8, using: &g) != 0
            let exit = Int.random(in: 0..<8, using: &g) != 0
            guard Int.random(in: 0..<10, using: &g) == 0 else {
                return try Region(
                    id: id, center: place(), radius: Double.random(in: 15...400, using: &g), notifyOnEntry: entry, notifyOnExit: exit,
                    loiteringDelay: loitering)
            }
            let corner = place()
            let width = Double.random(in: 0.0005...0.004, using: &g)
            let height = Double.random(in: 0.0005...0.004, using: &g)
            let ring = [(0.0, 0.0), (height, 0), (height, width), (0, width), (0, 0)].map {
                Coordinate(normalizingLatitude: corner.latitude + $0.0, longitude: corner.longitude + $0.1)
            }
            return try Region(id: id, polygons: [[ring]], notifyOnEntry: entry, notifyOnExit: exit, loiteringDelay: loitering)
        }
        var regions = try (0..<300).map { try randomRegion("r\($0)") }
        var fast = GeofenceEngine(regions: regions)
        var reference = ReferenceGeofenceEngine(regions: regions)
        var saved: [String: RegionStateRecord] = [:]
        var position = F.origin
        var time = 0.0
        for step in 0..<Self.steps {
            time += Double.random(in: 1...60, using: &g)
            let now = F.date(time)
            switch Int.random(in: 0..<100, using: &g) {
            case 0..<8:
                let id = regions[Int.random(in: 0..<regions.count, using: &g)].id
                let state: RegionState = Bool.random(using: &g) ? .inside : .outside
                let streaming = Bool.random(using: &g)
                let missed = Int.random(in: 0..<4, using: &g) == 0
                let event = fast.osCrossing(id: id, state: state, at: now, fixesStreaming: streaming, fixesMissed: missed)
                #expect(
                    event == reference.osCrossing(id: id, state: state, at: now, fixesStreaming: streaming, fixesMissed: missed),
                    "crossing at step \(step)")
            case 8..<10:
                let added = try (0..<Int.random(in: 1...5, using: &g)).map { _ in
                    try randomRegion(
                        Bool.random(using: &g) ? regions.randomElement(using: &g)!.id : "n\(step)-\(Int.random(in: 0..<1000, using: &g))")
                }
                regions = regions.filter { old in !added.contains { $0.id == old.id } } + added
                fast.add(added)
                reference.add(added)
            case 10..<11:
                let ids = (0..<3).map { _ in regions.randomElement(using: &g)!.id }
                regions.removeAll { ids.contains($0.id) }
                fast.remove(ids)
                reference.remove(ids)
            case 11..<12:
                fast.forgetStates()
                reference.forgetStates()
            case 12..<14:
                // A relaunch: new engines restore what was saved.
                for record in fast.takeStateChanges(at: now) { saved[record.regionID] = record }
                _ = reference.takeStateChanges(at: now)
                fast = GeofenceEngine(regions: regions)
                reference = ReferenceGeofenceEngine(regions: regions)
                let records = saved.values.sorted { $0.regionID < $1.regionID }
                fast.restore(records)
                reference.restore(records)
            default:
                position =
                    Int.random(in: 0..<20, using: &g) == 0
                    ? place(within: 2500)
                    : F.point(Double.random(in: 0...40, using: &g), bearing: Double.random(in: 0..<360, using: &g), from: position)
                let accuracy = [3.0, 8, 15, 20, 30, 50, 80, 150, 400, 1500][Int.random(in: 0..<10, using: &g)]
                let fix = F.fix(position, accuracy: accuracy, at: time)
                let depth = [1.0, 0.5, 0][Int.random(in: 0..<3, using: &g)]
                #expect(
                    fast.evaluate(fix, undecidedDepth: depth) == reference.evaluate(fix, undecidedDepth: depth), "fix at step \(step)")
                #expect(fast.undecidedRegions.map(\.id).sorted() == reference.undecidedIDs.sorted(), "undecided at step \(step)")
                #expect(fast.undecidedCount == reference.undecidedIDs.count, "undecided at step \(step)")
            }
            #expect(fast.dueDwells(at: now) == reference.dueDwells(at: now), "dwells at step \(step)")
            #expect(fast.nextDwellDue == reference.nextDwellDue, "next dwell at step \(step)")
            if step % 10 == 0 {
                let changes = fast.takeStateChanges(at: now)
                #expect(changes == reference.takeStateChanges(at: now), "saved states at step \(step)")
                for record in changes { saved[record.regionID] = record }
            }
            if step % 100 == 0 {
                #expect(fast.insideIDs == reference.insideIDs, "inside at step \(step)")
                #expect(regions.allSatisfy { fast.state(of: $0.id) == reference.state(of: $0.id) }, "states at step \(step)")
            }
        }
    }
}
