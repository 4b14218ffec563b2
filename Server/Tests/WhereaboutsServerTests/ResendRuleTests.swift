import Foundation
import Testing
import WhereaboutsCore
@testable import WhereaboutsServer

@Suite("The resend rule: one definition, the same answer in memory, on SQLite and on PostgreSQL")
struct ResendRuleTests {
    /// Copies of one record as a phone resends it: the stay grows, the accuracy comes and goes, and the
    /// position, altitude, speed and course change with each fix (some missing). No two are equally
    /// fine: of those, the one stored first keeps its position (``equallyFine()``).
    private static func copies(_ count: Int, seed: UInt64) -> [LocationRecord] {
        var generator = SeededGenerator(seed: seed)
        let id = UUID()
        return (0..<count).map { index in
            let accuracy = Double(generator.next() % 60) + 1 + Double(index) / 1000
            let fix = try! Fix(
                coordinate: Coordinate(latitude: 47 + Double(generator.next() % 1000) * 1e-6, longitude: 8.5), horizontalAccuracy: accuracy,
                altitude: generator.next() % 3 == 0 ? nil : Double(generator.next() % 500), speed: generator.next() % 2 == 0 ? nil : 1.5,
                course: Double(generator.next() % 360), timestamp: Date(timeIntervalSince1970: 1_700_000_000), source: .gps)
            return LocationRecord(id: id, fix: fix, trigger: .policy, dwell: Double(generator.next() % 900))
        }
    }

    @Test("merged keeps the larger dwell and takes every position field from the finer copy, whatever the order")
    func mergedIsOrderFree() {
        for seed in 0..<50 {
            let copies = Self.copies(6, seed: UInt64(seed))
            let forward = copies.dropFirst().reduce(copies[0], ResendRule.merged)
            let backward = copies.reversed().dropFirst().reduce(copies.last!, ResendRule.merged)
            #expect(forward == backward, "seed \(seed)")
            #expect(forward.dwell == copies.map(\.dwell).max())
            #expect(forward.fix.horizontalAccuracy == copies.map(\.fix.horizontalAccuracy).min())
            #expect(forward.fix.timestamp == copies[0].fix.timestamp)
        }
    }

    @Test("of equally fine copies, the one kept first keeps its position; the dwell still grows")
    func equallyFine() throws {
        var first = Self.copies(1, seed: 1)[0]
        first.dwell = 10
        var second = first
        second.fix.coordinate = try Coordinate(latitude: 47.5, longitude: 8.6)
        second.dwell = 20
        let merged = ResendRule.merged(first, second)
        #expect(merged.fix == first.fix && merged.dwell == 20)
    }

    @Test("the storage's SQL ends where merged ends, copy by copy and in one batch", arguments: StorageKind.available)
    func storageAgrees(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            for seed in 0..<12 {
                let copies = Self.copies(5, seed: UInt64(seed))
                let expected = copies.dropFirst().reduce(copies[0], ResendRule.merged)
                let oneByOne = uniqueDevice()
                let together = uniqueDevice()
                for device in [oneByOne, together] { try await storage.addDevice(id: device, tokenHash: Tokens.hash(device), at: Date()) }
                for copy in copies { _ = try await storage.ingest([copy], device: oneByOne, at: Date()) }
                _ = try await storage.ingest(copies, device: together, at: Date())
                for device in [oneByOne, together] {
                    let stored = try #require(try await storage.last(device: device))
                    #expect(stored.dwell == expected.dwell, "\(kind) seed \(seed) \(device)")
                    #expect(stored.fix.horizontalAccuracy == expected.fix.horizontalAccuracy)
                    #expect(stored.fix.coordinate == expected.fix.coordinate)
                    #expect(stored.fix.altitude == expected.fix.altitude && stored.fix.speed == expected.fix.speed)
                    #expect(stored.fix.course == expected.fix.course)
                }
            }
        }
    }
}
