import Foundation
import PostgresNIO
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("Storage contract: SQLite and PostgreSQL behave the same")
struct StorageContractTests {
    private func records(_ count: Int, start: Double = 1_700_000_000) -> [LocationRecord] {
        (0..<count).map { i in
            let fix = try! Fix(
                coordinate: Coordinate(latitude: 10 + Double(i) * 0.001, longitude: 20), horizontalAccuracy: 5,
                timestamp: Date(timeIntervalSince1970: start + Double(i)))
            return LocationRecord(fix: fix, trigger: .policy)
        }
    }

    @Test(
        "devices: add once, the second add is refused, the token hash is kept; the schema checks as migrated",
        arguments: StorageKind.available)
    func devices(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let id = uniqueDevice()
            try await storage.addDevice(id: id, tokenHash: Tokens.hash("t1"), at: Date())
            await #expect(throws: ServerError.deviceExists(id)) {
                try await storage.addDevice(id: id, tokenHash: Tokens.hash("t2"), at: Date())
            }
            #expect(try await storage.tokenHash(device: id) == Tokens.hash("t1"))
            #expect(try await storage.tokenHash(device: uniqueDevice()) == nil)
            #expect(try await storage.devices().contains { $0.id == id && $0.locations == 0 })
            try await storage.checkMigrated()
        }
    }

    @Test(
        "ingest: a resend is a duplicate, the larger dwell and the finer position win, last is newest by timestamp",
        arguments: StorageKind.available)
    func ingest(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            let batch = records(10)
            // Arrive newest first: `last` must still be the newest by timestamp.
            #expect(try await storage.ingest(Array(batch[5...]), device: device, at: Date()) == IngestCounts(accepted: 5))
            #expect(try await storage.ingest(batch, device: device, at: Date()) == IngestCounts(accepted: 5, duplicate: 5))
            var longer = batch[9]
            longer.dwell = 600
            #expect(try await storage.ingest([longer, batch[9]], device: device, at: Date()) == IngestCounts(accepted: 0, duplicate: 2))
            var finer = batch[9]
            finer.fix.coordinate = try Coordinate(latitude: 10.0091, longitude: 20.0002)
            finer.fix.horizontalAccuracy = 3
            finer.fix.altitude = 440
            // The finer copy first, then the first copy again, in one batch and alone: the best stays.
            #expect(try await storage.ingest([finer, batch[9]], device: device, at: Date()) == IngestCounts(accepted: 0, duplicate: 2))
            #expect(try await storage.ingest([batch[9]], device: device, at: Date()) == IngestCounts(accepted: 0, duplicate: 1))
            let last = try #require(try await storage.last(device: device))
            #expect(last.id == batch[9].id)
            #expect(last.dwell == 600, "the larger dwell, though the finer copy had none")
            #expect(last.fix.coordinate == finer.fix.coordinate && last.fix.horizontalAccuracy == 3 && last.fix.altitude == 440)
            #expect(last.fix.timestamp == batch[9].fix.timestamp)
            #expect(try await storage.last(device: uniqueDevice()) == nil)
        }
    }

    @Test("history is sorted by timestamp, paged, and bounded by from and to", arguments: StorageKind.available)
    func history(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            let batch = records(50)
            _ = try await storage.ingest(batch.shuffled(), device: device, at: Date())
            var seen: [LocationRecord] = []
            var pages = 0
            try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 7) { page in
                pages += 1
                seen += page
            }
            #expect(seen.map(\.id) == batch.map(\.id))
            #expect(pages == 8)
            #expect(seen[3].fix.coordinate == batch[3].fix.coordinate)
            var window: [LocationRecord] = []
            try await storage.history(
                device: device, from: Date(timeIntervalSince1970: 1_700_000_010), to: Date(timeIntervalSince1970: 1_700_000_020), page: 100
            ) { window += $0 }
            #expect(window.map(\.id) == batch[10..<20].map(\.id))
        }
    }

    @Test(
        "events are deduplicated and keep their initial flag; commands go out under leases until acknowledged, in order, in the batch write that confirms the token",
        arguments: StorageKind.available)
    func eventsAndCommands(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            let event = ReceivedEvent(
                id: UUID(), regionID: "home", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_000), latitude: 1, longitude: 2
            )
            let found = ReceivedEvent(
                id: UUID(), regionID: "work", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_100), latitude: nil,
                longitude: nil,
                initial: true)
            #expect(try await storage.ingest([event, found], device: device, at: Date()) == IngestCounts(accepted: 2))
            #expect(try await storage.ingest([event], device: device, at: Date()) == IngestCounts(duplicate: 1))
            #expect(try await storage.events(device: device, from: .distantPast, to: .distantFuture) == [event, found])
            let hash = Tokens.hash("events-and-commands")
            try await storage.addDevice(id: device, tokenHash: hash, at: Date())
            let answer = { (acknowledged: [String], date: Date) in
                try await storage.ingest([], device: device, tokenHash: hash, acknowledging: acknowledged, at: date, lease: 30).commands
            }
            let report = try await queueCommand(.reportLocation, device: device, in: storage)
            let track = try await queueCommand(.startActiveTracking(minutes: 10), device: device, in: storage)
            #expect(report.id != track.id)
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await answer([], t0) == [report, track])
            #expect(try await answer([], t0 + 29).isEmpty, "leased to the first answer")
            #expect(try await storage.takeCommands(device: device, at: t0 + 29).isEmpty, "OwnTracks does not take a leased command")
            #expect(try await answer([], t0 + 30) == [report, track], "sent again once the lease ran out")
            let batch = try await storage.ingest(
                records(2), device: device, tokenHash: hash, acknowledging: [report.id, "unknown"], at: t0 + 61, lease: 30)
            #expect(batch.counts == IngestCounts(accepted: 2) && batch.commands == [track], "stored, acknowledged and leased in one write")
            #expect(try await answer([], t0 + 200) == [track], "an acknowledged command is gone")
            await #expect(throws: CredentialChanged.self, "a token digest that is no longer the device's stores and acknowledges nothing") {
                try await storage.ingest(
                    records(1, start: 1_700_100_000), device: device, tokenHash: Tokens.hash("another"), acknowledging: [track.id],
                    at: t0 + 300, lease: 30)
            }
            #expect(try await storage.devices().first { $0.id == device }?.locations == 2)
            let other = uniqueDevice()
            try await storage.addDevice(id: other, tokenHash: Tokens.hash("other"), at: Date())
            let others = try await storage.ingest(
                [], device: other, tokenHash: Tokens.hash("other"), acknowledging: [track.id], at: t0 + 300, lease: 30)
            #expect(others.commands.isEmpty, "another device neither gets nor acknowledges this one's command")
            #expect(try await storage.takeCommands(device: device, at: t0 + 300) == [.startActiveTracking(minutes: 10)])
            #expect(try await storage.takeCommands(device: device, at: t0 + 300).isEmpty)
        }
    }

    @Test("messages are kept in order, per device; regions sent twice in one call keep the last", arguments: StorageKind.available)
    func messagesAndRegions(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            let at = Date(timeIntervalSince1970: 1_700_000_000)
            try await storage.saveMessage("card", body: #"{"_type":"card","name":"Ada"}"#, device: device, at: at)
            try await storage.saveMessage("lwt", body: #"{"_type":"lwt","tst":1}"#, device: device, at: at)
            #expect(try await storage.messages(device: device).map(\.type) == ["card", "lwt"])
            #expect(try await storage.messages(device: device).first?.body == #"{"_type":"card","name":"Ada"}"#)
            #expect(try await storage.messages(device: uniqueDevice()).isEmpty)
            try await storage.saveRegions(
                [
                    WireRegion(id: "home", latitude: 1, longitude: 2, radius: 50),
                    WireRegion(id: "home", latitude: 3, longitude: 4, radius: 60),
                ],
                device: device, at: at)
            #expect(try await storage.regions(device: device) == [WireRegion(id: "home", latitude: 3, longitude: 4, radius: 60)])
        }
    }

    @Test(
        "regions come back in byte order (upper case first) on both kinds, whatever the database's collation",
        arguments: StorageKind.available)
    func regionOrder(_ kind: StorageKind) async throws {
        try await withIsolatedStorage(kind) { storage in
            if let client = (storage as? PostgresTrackStorage)?.client {
                // As in a database made with an en_US locale, which ignores case and punctuation at first.
                let icu = try await client.query("SELECT count(*) FROM pg_collation WHERE collname = 'en-US-x-icu'", logger: quietLogger)
                for try await count in icu.decode(Int.self) where count > 0 {
                    try await client.query(
                        #"ALTER TABLE region ALTER COLUMN id TYPE text COLLATE "en-US-x-icu""#, logger: quietLogger)
                }
            }
            let device = uniqueDevice()
            let regions = ["gym", "Home", "a-c", "ab"].map { WireRegion(id: $0, latitude: 1, longitude: 2, radius: 50) }
            try await storage.saveRegions(regions, device: device, at: Date())
            #expect(try await storage.regions(device: device).map(\.id) == ["Home", "a-c", "ab", "gym"])
        }
    }

    @Test(
        "a rotated token replaces the old and ends its logins; remove revokes but keeps data; delete erases all",
        arguments: StorageKind.available)
    func deviceLifecycle(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let (kept, erased) = (uniqueDevice("kept"), uniqueDevice("erased"))
            for id in [kept, erased] {
                try await storage.addDevice(id: id, tokenHash: Tokens.hash("old-\(id)"), at: Date())
                _ = try await storage.ingest(records(5), device: id, at: Date())
                _ = try await storage.ingest(
                    [
                        ReceivedEvent(
                            id: UUID(), regionID: "home", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_000), latitude: 1,
                            longitude: 2)
                    ],
                    device: id, at: Date())
                try await storage.saveRegions([WireRegion(id: "home", latitude: 1, longitude: 2, radius: 50)], device: id, at: Date())
                try await storage.saveMessage("card", body: "{}", device: id, at: Date())
                _ = try await queueCommand(.reportLocation, device: id, in: storage)
            }
            let login = BrowserLogin(
                idHash: Tokens.hash("cookie-\(kept)"), device: kept, tokenHash: Tokens.hash("old-\(kept)"), createdAt: wholeSeconds(0),
                expiresAt: wholeSeconds(3600))
            try await storage.saveLogin(login)
            #expect(try await storage.login(idHash: login.idHash, at: Date()) == login)
            #expect(try await storage.login(idHash: login.idHash, at: Date() + 7200) == nil, "expired")
            #expect(try await storage.rotateToken(device: kept, tokenHash: Tokens.hash("new")))
            #expect(try await storage.tokenHash(device: kept) == Tokens.hash("new"))
            #expect(try await storage.login(idHash: login.idHash, at: Date()) == nil, "rotation ends the device's logins")
            #expect(try await storage.rotateToken(device: uniqueDevice(), tokenHash: Tokens.hash("x")) == false)

            #expect(try await storage.removeDevice(kept) == DeletedRows(commands: 1))
            #expect(try await storage.tokenHash(device: kept) == nil)
            #expect(try await storage.removeDevice(kept) == nil)
            var history: [LocationRecord] = []
            try await storage.history(device: kept, from: .distantPast, to: .distantFuture, page: 100) { history += $0 }
            #expect(history.count == 5, "removal keeps the track")

            let admin = BrowserLogin(
                idHash: Tokens.hash("admin-cookie-\(erased)"), device: nil, tokenHash: Tokens.hash("admin"), createdAt: wholeSeconds(0),
                expiresAt: wholeSeconds(60))
            try await storage.saveLogin(admin)
            try await storage.saveLogin(
                BrowserLogin(
                    idHash: Tokens.hash("c-\(erased)"), device: erased, tokenHash: Tokens.hash("old-\(erased)"), createdAt: Date(),
                    expiresAt: Date() + 60))
            #expect(
                try await storage.deleteDevice(erased)
                    == DeletedRows(locations: 5, events: 1, messages: 1, regions: 1, commands: 1, logins: 1))
            #expect(try await storage.tokenHash(device: erased) == nil)
            #expect(try await storage.last(device: erased) == nil)
            #expect(try await storage.events(device: erased, from: .distantPast, to: .distantFuture).isEmpty)
            #expect(try await storage.regions(device: erased).isEmpty)
            #expect(try await storage.messages(device: erased).isEmpty)
            #expect(
                try await storage.ingest(records(5), device: erased, at: Date()) == IngestCounts(accepted: 5),
                "nothing of it is remembered, not even ids")
            #expect(try await storage.login(idHash: admin.idHash, at: Date()) == admin, "other logins stay")
            let other = BrowserLogin(
                idHash: Tokens.hash("other-\(erased)"), device: nil, tokenHash: Tokens.hash("admin"), createdAt: wholeSeconds(0),
                expiresAt: wholeSeconds(120))
            try await storage.saveLogin(other)
            try await storage.endLogin(idHash: admin.idHash, at: Date() + 60)
            #expect(try await storage.login(idHash: admin.idHash, at: Date()) == nil)
            #expect(try await storage.login(idHash: other.idHash, at: Date()) == other, "a login not expired at the logout's time stays")
            try await storage.endLogin(idHash: admin.idHash, at: Date() + 180)
            #expect(
                try await storage.login(idHash: other.idHash, at: Date()) == nil,
                "a logout forgets the logins expired at its time, by the clock it is given")
        }
    }

    @Test(
        "prune deletes what is older than the day, across months and years, and keeps the rest deduplicated",
        arguments: StorageKind.available)
    func prune(_ kind: StorageKind) async throws {
        // Pruning reaches every device: on a database of its own, so tests running meanwhile keep their data.
        try await withIsolatedStorage(kind) { storage in
            let device = uniqueDevice()
            // 2000-01-01, mid 2009, the last second of January 2024, 2024-02-10 and 2024-03-05, and a minute ago.
            let times = [946_684_800, 1_245_000_000, 1_706_745_599, 1_707_523_200, 1_709_596_800, Date().timeIntervalSince1970 - 60]
            let batch = times.enumerated().map { index, t in
                LocationRecord(
                    fix: try! Fix(
                        coordinate: Coordinate(latitude: Double(index), longitude: 1), horizontalAccuracy: 5,
                        timestamp: Date(timeIntervalSince1970: t)),
                    trigger: .policy)
            }
            #expect(try await storage.ingest(batch, device: device, at: Date()) == IngestCounts(accepted: 6))
            #expect(
                try await storage.ingest(batch.reversed(), device: device, at: Date()) == IngestCounts(duplicate: 6),
                "duplicates across every month")
            let event = ReceivedEvent(
                id: UUID(), regionID: "old", kind: .exit, timestamp: Date(timeIntervalSince1970: 1_245_000_000), latitude: nil,
                longitude: nil)
            _ = try await storage.ingest([event], device: device, at: Date())
            // Before 2024-02-15: the months up to January 2024 go whole, February 2024 row by row.
            let pruned = try await storage.prune(before: Date(timeIntervalSince1970: 1_707_955_200))
            #expect(pruned.locations == 4 && pruned.events == 1)
            if kind == .postgres { #expect(pruned.partitionsDropped == 3, "2000-01, 2009-06 and 2024-01 go whole: \(pruned)") }
            var left: [LocationRecord] = []
            try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 100) { left += $0 }
            #expect(left.map(\.id) == [batch[4].id, batch[5].id])
            #expect(try await storage.events(device: device, from: .distantPast, to: .distantFuture).isEmpty)
            #expect(
                try await storage.ingest(batch, device: device, at: Date()) == IngestCounts(accepted: 4, duplicate: 2),
                "pruned months are created again")
        }
    }

    @Test(
        "concurrent writes (one transaction on SQLite): a refused one fails alone, every stored row counted once",
        arguments: StorageKind.available)
    func concurrentWrites(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let ids = (0..<10).map { _ in uniqueDevice() }
            let device = uniqueDevice()
            let batch = records(50)
            let outcomes = await withTaskGroup(of: (added: Int, refused: Int, stored: IngestCounts).self) { group in
                for id in ids + ids {
                    group.addTask {
                        do {
                            try await storage.addDevice(id: id, tokenHash: Tokens.hash(id), at: Date())
                            return (1, 0, IngestCounts())
                        } catch {
                            return (0, error as? ServerError == .deviceExists(id) ? 1 : 0, IngestCounts())
                        }
                    }
                }
                for slice in 0..<10 {
                    group.addTask {
                        (
                            0, 0,
                            (try? await storage.ingest(Array(batch[(slice * 3)..<(slice * 3 + 20)]), device: device, at: Date()))
                                ?? IngestCounts()
                        )
                    }
                }
                return await group.reduce(into: (added: 0, refused: 0, stored: IngestCounts())) {
                    $0.added += $1.added
                    $0.refused += $1.refused
                    $0.stored.accepted += $1.stored.accepted
                    $0.stored.duplicate += $1.stored.duplicate
                }
            }
            #expect(outcomes.added == 10 && outcomes.refused == 10)
            #expect(outcomes.stored == IngestCounts(accepted: 47, duplicate: 200 - 47))
            for id in ids { #expect(try await storage.tokenHash(device: id) == Tokens.hash(id)) }
            var held = 0
            try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 100) { held += $0.count }
            #expect(held == 47)
        }
    }
}

/// A moment `seconds` from now in whole seconds, which survives storage's epoch-seconds round trip exactly.
private func wholeSeconds(_ seconds: Double) -> Date { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded()) }
