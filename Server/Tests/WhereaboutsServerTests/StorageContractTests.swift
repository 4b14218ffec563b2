import Foundation
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

    @Test("devices: add once, the second add is refused, the token hash is kept", arguments: StorageKind.available)
    func devices(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let id = uniqueDevice()
            try await storage.addDevice(id: id, tokenHash: Tokens.hash("t1"), at: Date())
            await #expect(throws: ServerError.deviceExists(id)) { try await storage.addDevice(id: id, tokenHash: Tokens.hash("t2"), at: Date()) }
            #expect(try await storage.tokenHash(device: id) == Tokens.hash("t1"))
            #expect(try await storage.tokenHash(device: uniqueDevice()) == nil)
            #expect(try await storage.devices().contains { $0.id == id && $0.locations == 0 })
        }
    }

    @Test("ingest: a resend is a duplicate, the larger dwell wins, last is newest by timestamp", arguments: StorageKind.available)
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
            let last = try #require(try await storage.last(device: device))
            #expect(last.id == batch[9].id)
            #expect(last.dwell == 600)
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

    @Test("events are deduplicated and keep their initial flag; commands stay until acknowledged, in order", arguments: StorageKind.available)
    func eventsAndCommands(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            let event = ReceivedEvent(id: UUID(), regionID: "home", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_000), latitude: 1, longitude: 2)
            let found = ReceivedEvent(
                id: UUID(), regionID: "work", kind: .enter, timestamp: Date(timeIntervalSince1970: 1_700_000_100), latitude: nil, longitude: nil,
                initial: true)
            #expect(try await storage.ingest([event, found], device: device, at: Date()) == IngestCounts(accepted: 2))
            #expect(try await storage.ingest([event], device: device, at: Date()) == IngestCounts(duplicate: 1))
            #expect(try await storage.events(device: device, from: .distantPast, to: .distantFuture) == [event, found])
            let report = try await storage.queue(.reportLocation, device: device, at: Date())
            let track = try await storage.queue(.startActiveTracking(minutes: 10), device: device, at: Date())
            #expect(report.id != track.id)
            #expect(try await storage.commands(device: device, acknowledging: []) == [report, track])
            #expect(try await storage.commands(device: device, acknowledging: []) == [report, track], "kept until acknowledged")
            #expect(try await storage.commands(device: device, acknowledging: [report.id, "unknown"]) == [track])
            #expect(try await storage.commands(device: uniqueDevice(), acknowledging: [track.id]).isEmpty)
            #expect(try await storage.takeCommands(device: device) == [.startActiveTracking(minutes: 10)])
            #expect(try await storage.takeCommands(device: device).isEmpty)
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
                [WireRegion(id: "home", latitude: 1, longitude: 2, radius: 50), WireRegion(id: "home", latitude: 3, longitude: 4, radius: 60)],
                device: device, at: at)
            #expect(try await storage.regions(device: device) == [WireRegion(id: "home", latitude: 3, longitude: 4, radius: 60)])
        }
    }
}
