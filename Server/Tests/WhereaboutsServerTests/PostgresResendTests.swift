import Foundation
import PostgresNIO
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// A `/pub` group on PostgreSQL commits its statement, which takes the devices' due commands, before
/// it improves the rows a resent copy could better; an improvement that fails must not lose those
/// commands.
@Suite("PostgreSQL /pub: a resent copy whose improvement fails")
struct PostgresResendTests {
    @Test(
        "the improvement is given up and logged; the answer still carries the device's command, and the location keeps its first copy",
        .needsPostgres)
    func improvementRefused() async throws {
        try await withIsolatedDatabase(.postgres) { url in
            try await ServerApp.withStorage(url, logger: quietLogger) { storage in
                let device = uniqueDevice("resend")
                try await storage.addDevice(id: device, tokenHash: Tokens.hash("token"), at: Date())
                let account = try #require(try await storage.ownTracksAccount(device: device))
                let fields = OwnTracksFields(message: "{}")
                let fix = try Fix(
                    coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 20,
                    timestamp: Date(timeIntervalSince1970: 1_700_000_000))
                let first = LocationRecord(id: UUID(), fix: fix, trigger: .policy)
                let stored = try await storage.ingestOwnTracksTakingCommands(first, fields: fields, account: account, at: Date())
                #expect(stored.counts == IngestCounts(accepted: 1))

                let client = (storage as! PostgresTrackStorage).client
                try await client.query(
                    PostgresQuery(
                        unsafeSQL:
                            "CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'updates refused'; END $$"
                    ), logger: quietLogger)
                let trigger = "CREATE TRIGGER refuse BEFORE UPDATE ON location FOR EACH ROW EXECUTE FUNCTION refuse_update()"
                try await client.query(PostgresQuery(unsafeSQL: trigger), logger: quietLogger)
                _ = try await queueCommand(.reportLocation, device: device, in: storage)

                let longer = LocationRecord(id: first.id, fix: fix, trigger: .policy, dwell: 600)
                let answer = try await storage.ingestOwnTracksTakingCommands(longer, fields: fields, account: account, at: Date())
                #expect(answer.counts == IngestCounts(duplicate: 1))
                #expect(answer.commands == [.reportLocation], "the command the statement took reaches the device")
                let kept = try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil)
                #expect(kept.map(\.record.dwell) == [0], "the refused improvement left the first copy")
            }
        }
    }
}
