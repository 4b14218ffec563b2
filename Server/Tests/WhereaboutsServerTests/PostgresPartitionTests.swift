import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// Instances sharing one PostgreSQL database each remember the monthly partitions they have seen.
/// When one prunes a month, another that still remembers it must learn it is gone and create it
/// again, rather than fail every insert into that month until it restarts. And the partition made
/// for a location must be the one its row is routed to, to the last moment of a month.
@Suite("PostgreSQL: the monthly partitions of location")
struct PostgresPartitionTests {
    private static func january(_ day: Double) throws -> LocationRecord {
        let fix = try Fix(
            coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9,
            timestamp: Date(timeIntervalSince1970: 1_704_067_200 + day * 86_400))
        return LocationRecord(fix: fix, trigger: .policy)
    }

    @Test(
        "the instance that knew the month creates it again: the batch API and /pub's write store their location",
        .needsPostgres)
    func prunedElsewhere() async throws {
        try await withIsolatedDatabase(.postgres) { url in
            try await ServerApp.withStorage(url, logger: quietLogger) { first in
                try await ServerApp.withStorage(url, logger: quietLogger) { second in
                    let device = uniqueDevice("month")
                    try await first.addDevice(id: device, tokenHash: Tokens.hash("token"), at: Date())
                    let february = Date(timeIntervalSince1970: 1_706_745_600)
                    #expect(try await first.ingest([Self.january(1)], device: device, at: Date()) == IngestCounts(accepted: 1))

                    #expect(try await second.prune(before: february).partitionsDropped == 1)
                    #expect(try await first.ingest([Self.january(2)], device: device, at: Date()) == IngestCounts(accepted: 1))

                    #expect(try await second.prune(before: february).partitionsDropped == 1)
                    let account = try #require(try await first.ownTracksAccount(device: device))
                    let written = try await first.ingestOwnTracksTakingCommands(
                        Self.january(3), fields: OwnTracksFields(message: "{}"), account: account, at: Date())
                    #expect(written.counts == IngestCounts(accepted: 1))
                }
            }
        }
    }

    @Test(
        "a location in the last half microsecond of a month goes to that month's partition, made as the row is routed",
        .needsPostgres)
    func lastMomentOfMonth() async throws {
        try await withIsolatedStorage(.postgres) { storage in
            let device = uniqueDevice("month")
            // 2024-04-30T23:59:59.99999976Z: rounded to the microsecond it would be 2024-05-01.
            let t = 1_714_521_599.999_999_8
            #expect(t < 1_714_521_600)
            let fix = try Fix(
                coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9, timestamp: Date(timeIntervalSince1970: t))
            let record = LocationRecord(fix: fix, trigger: .policy)
            #expect(try await storage.ingest([record], device: device, at: Date()) == IngestCounts(accepted: 1))
            var read: [LocationRecord] = []
            try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 10) { read += $0 }
            #expect(read.map(\.id) == [record.id])
            #expect(read.first?.fix.timestamp.timeIntervalSince1970 == t)
        }
    }
}
