import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// Many writes at once, as group commit takes them together (one transaction on SQLite; one
/// transaction and multi-row statements on PostgreSQL): each is answered as if it had been alone.
@Suite("Group commit: concurrent writes are answered as if each had been alone")
struct GroupCommitTests {
    private func record(_ t: Double, id: UUID = UUID(), accuracy: Double = 20, latitude: Double = 48.85, dwell: Double = 0)
        -> LocationRecord
    {
        LocationRecord(
            id: id,
            fix: try! Fix(
                coordinate: Coordinate(latitude: latitude, longitude: 2.29), horizontalAccuracy: accuracy,
                timestamp: Date(timeIntervalSince1970: t)),
            trigger: .request, dwell: dwell)
    }

    /// Adds `count` new devices whose ids start with `prefix`, each with its id as its token.
    private static func addDevices(_ count: Int, named prefix: String, to storage: any TrackStorage) async throws -> [String] {
        let devices = (0..<count).map { _ in uniqueDevice(prefix) }
        for device in devices { try await storage.addDevice(id: device, tokenHash: Tokens.hash(device), at: Date()) }
        return devices
    }

    private func fields(_ t: Double) -> OwnTracksFields {
        OwnTracksFields(tid: "gc", battery: 50, message: #"{"_type":"location","tst":\#(Int(t))}"#)
    }

    @Test(
        "/pub writes of three devices at once: every location stored once with its fields, copies of one kept as the best of them, a stale account refused alone, a device's due commands in exactly one answer",
        arguments: StorageKind.available)
    func ownTracksWrites(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let devices = try await Self.addDevices(3, named: "gc", to: storage)
            var accounts: [OwnTracksAccount] = []
            for device in devices { accounts.append(try #require(try await storage.ownTracksAccount(device: device))) }
            let queued = [ServerCommand.reportLocation, .reportLocation]
            for command in queued { _ = try await queueCommand(command, device: devices[0], in: storage) }
            let start = 1_700_000_000.0
            let copied = UUID()
            // Copies of one location: the longest stay (600 s) and the finest position (4 m, at 48.9) win.
            let copies = [(20.0, 48.80, 60.0), (4, 48.90, 120), (9, 48.70, 600), (30, 48.60, 300), (12, 48.50, 0)].map {
                record(start - 1, id: copied, accuracy: $0.0, latitude: $0.1, dwell: $0.2)
            }
            var writes = devices.indices.flatMap { index in (0..<20).map { (accounts[index], record(start + Double($0))) } }
            writes += copies.map { (accounts[0], $0) }
            let stale = OwnTracksAccount(tokenHash: Tokens.hash("rotated"), profile: accounts[1].profile)
            let outcomes = await withTaskGroup(of: Result<(counts: IngestCounts, commands: [ServerCommand]), any Error>.self) { group in
                for (account, location) in writes + [(stale, record(start + 100))] {
                    group.addTask {
                        await outcome {
                            try await storage.ingestOwnTracksTakingCommands(
                                location, fields: fields(location.fix.timestamp.timeIntervalSince1970), account: account, at: Date())
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let answers = outcomes.compactMap { try? $0.get() }
            #expect(answers.count == writes.count)
            #expect(outcomes.filter { if case .failure(let error) = $0 { error is CredentialChanged } else { false } }.count == 1)
            #expect(answers.map(\.counts.accepted).reduce(0, +) == 61)
            #expect(answers.map(\.counts.duplicate).reduce(0, +) == 4)
            #expect(answers.flatMap(\.commands) == queued, "both commands, in one answer")
            #expect(answers.filter { !$0.commands.isEmpty }.count == 1)
            for (index, device) in devices.enumerated() {
                let stored = try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil)
                #expect(stored.count == (index == 0 ? 21 : 20))
                #expect(stored.allSatisfy { $0.fields?.tid == "gc" }, "every location with its fields")
            }
            let best = try #require(
                try await storage.ownTracksLocations(device: devices[0], from: .distantPast, to: .distantFuture, limit: nil).first {
                    $0.record.id == copied
                })
            let fix = best.record.fix
            #expect(best.record.dwell == 600)
            #expect(fix.horizontalAccuracy == 4 && fix.coordinate.latitude == 48.90)
        }
    }

    @Test(
        "batches of two devices at once, overlapping: each location stored once, a stale token refused alone, acknowledged commands gone, the rest leased to exactly one answer",
        arguments: StorageKind.available)
    func batchWrites(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let devices = try await Self.addDevices(2, named: "gb", to: storage)
            let done = try await queueCommand(.reportLocation, device: devices[0], in: storage)
            let due = try await queueCommand(.startActiveTracking(minutes: 5), device: devices[0], in: storage)
            let start = 1_700_000_000.0
            let locations = (0..<100).map { record(start + Double($0)) }
            let outcomes = await withTaskGroup(of: Result<(counts: IngestCounts, commands: [DeviceCommand]), any Error>.self) { group in
                for slice in 0..<10 {
                    for device in devices {
                        group.addTask {
                            await outcome {
                                try await storage.ingest(
                                    Array(locations[(slice * 8)..<(slice * 8 + 20)]), device: device, tokenHash: Tokens.hash(device),
                                    acknowledging: device == devices[0] && slice == 0 ? [done.id] : [], at: Date(), lease: 60)
                            }
                        }
                    }
                }
                group.addTask {
                    await outcome {
                        try await storage.ingest(
                            [record(start - 5)], device: devices[1], tokenHash: Tokens.hash("rotated"), acknowledging: [], at: Date(),
                            lease: 60)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let answers = outcomes.compactMap { try? $0.get() }
            #expect(answers.count == 20)
            #expect(outcomes.filter { if case .failure(let error) = $0 { error is CredentialChanged } else { false } }.count == 1)
            let accepted = answers.map(\.counts.accepted).reduce(0, +)
            let duplicate = answers.map(\.counts.duplicate).reduce(0, +)
            #expect(accepted == 184 && duplicate == 216, "92 of each device's 200 stored")
            // The acknowledged command may have gone out before its acknowledgement was written; the other is leased once at most per lease.
            let leased = answers.flatMap(\.commands).map(\.id)
            #expect(leased.filter { $0 == due.id }.count == 1, "\(leased)")
            let after = try await storage.ingest(
                [], device: devices[0], tokenHash: Tokens.hash(devices[0]), acknowledging: [], at: Date().addingTimeInterval(120), lease: 60
            )
            #expect(after.commands.map(\.id) == [due.id], "the acknowledged command is gone; the other comes back after its lease")
            for device in devices {
                var held = 0
                try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 500) { held += $0.count }
                #expect(held == 92)
            }
        }
    }
}

/// The result of `body`, thrown error and all.
private func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
