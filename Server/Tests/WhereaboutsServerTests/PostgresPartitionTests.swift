import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// Instances sharing one PostgreSQL database each remember the monthly partitions they have seen.
/// When one prunes a month, another that still remembers it must learn it is gone and create it
/// again, rather than fail every insert into that month until it restarts.
@Suite("PostgreSQL: a month pruned by another instance")
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
}
