import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsServer

@Suite("Record ids of any version")
struct RecordIDIngestTests {
    private func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"]
    }

    /// Ids as our clients sent them before (version 4), as they send them now (version 7), and as
    /// other software might (version 1, a name-based version 5).
    private static func ids() -> [UUID] {
        var generator = SeededGenerator(seed: 23)
        let now = Date()
        return (0..<5).map { _ in UUID() } + (0..<5).map { RecordID.make(at: now.addingTimeInterval(-Double($0)), using: &generator) }
            + ["6ba7b810-9dad-11d1-80b4-00c04fd430c8", "2ed6657d-e927-568b-95e1-2665a8aea6a2"].map { UUID(uuidString: $0)! }
    }

    @Test("the batch API stores version 4 and version 7 ids alike and drops their resends", arguments: StorageKind.available)
    func batch(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let ids = Self.ids()
            let locations = zip(wireLocations(ids.count), ids).map { location, id in
                var location = location
                location.id = id.uuidString.lowercased()
                return location
            }
            let path = "/v1/devices/\(server.device)/locations"
            let first = try await server.send("POST", path, token: server.token, body: batchBody(locations))
            #expect(server.json(first)["accepted"] as? Int == ids.count)
            let again = try await server.send("POST", path, token: server.token, body: batchBody(locations.reversed()))
            #expect(server.json(again)["duplicate"] as? Int == ids.count)
            var stored: [UUID] = []
            try await server.storage.history(device: server.device, from: .distantPast, to: .distantFuture, page: 100) {
                stored += $0.map(\.id)
            }
            #expect(stored.sorted { $0.uuidString < $1.uuidString } == ids.sorted { $0.uuidString < $1.uuidString })
        }
    }

    /// A message as the OwnTracks apps send it, without `_id`.
    private static func message(tst: Int) -> Data {
        Data(#"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(tst),"acc":9}"#.utf8)
    }

    /// The id servers before time-ordered ids derived for ``message(tst:)`` of device
    /// `derived-id-pin` at 1700000000: the first 16 bytes of SHA-256 over
    /// "derived-id-pin|1700000000.0|47.37|8.54" with version 5 bits.
    private static let legacyID = UUID(uuidString: "108D8297-0C0B-5892-A305-D7AECE29C1D0")!

    @Test(
        "/pub gives a message without _id a time-ordered id derived from its content, the same for every server from now on",
        arguments: StorageKind.available)
    func derivedIDIsStable(_ kind: StorageKind) async throws {
        try await withIsolatedStorage(kind) { storage in
            #expect(try await storage.ownTracksLegacyIDsBefore() == nil, "a new database has no earlier server's ids")
            try await withLiveServer(on: storage) { server in
                try await storage.addDevice(id: "derived-id-pin", tokenHash: Tokens.hash("pin-token"), at: Date())
                for _ in 0..<2 {
                    let reply = try await server.send(
                        "POST", "/pub", token: nil, body: Self.message(tst: 1_700_000_000), headers: basic("derived-id-pin", "pin-token"))
                    #expect(reply.status == 200)
                }
                let stored = try await storage.ownTracksLocations(
                    device: "derived-id-pin", from: .distantPast, to: .distantFuture, limit: nil)
                // 1700000000000 ms is 0x018BCFE56800; then version 7 and the legacy id's hash bits.
                #expect(stored.map(\.record.id) == [UUID(uuidString: "018BCFE5-6800-7892-A305-D7AECE29C1D0")!])
            }
        }
    }

    @Test("a location's derived id grows with its time; one timed before the legacy limit keeps the name-based id")
    func derivedIDOrder() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let ids = (0..<200).map { i in
            OwnTracksParser.locationID(
                device: "d", content: "\(1_700_000_000 + i)|47.37|8.54", time: start.addingTimeInterval(Double(i) / 10), legacyBefore: nil)
        }
        #expect(ids.map(\.uuidString) == ids.map(\.uuidString).sorted())
        #expect(ids.allSatisfy { $0.uuid.6 >> 4 == 7 && $0.uuid.8 >> 6 == 2 })
        let content = "1700000000.0|47.37|8.54"
        let limit = start.addingTimeInterval(1)
        #expect(
            OwnTracksParser.locationID(device: "derived-id-pin", content: content, time: start, legacyBefore: limit)
                == Self.legacyID)
        #expect(
            OwnTracksParser.locationID(device: "derived-id-pin", content: content, time: limit, legacyBefore: limit)
                != Self.legacyID)
    }

    @Test(
        "after an upgrade, a message an earlier server stored is recognised when resent, and the limit stays as first set",
        arguments: StorageKind.available)
    func upgrade(_ kind: StorageKind) async throws {
        try await withIsolatedDatabase(kind) { url in
            try await withEarlierSchema(url) { storage in
                try await storage.addDevice(id: "derived-id-pin", tokenHash: Tokens.hash("pin-token"), at: Date())
                let fix = try Fix(
                    coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9,
                    timestamp: Date(timeIntervalSince1970: 1_700_000_000))
                let stored = try await storage.ingest(
                    [LocationRecord(id: Self.legacyID, fix: fix, trigger: .policy)], device: "derived-id-pin", at: Date())
                #expect(stored.accepted == 1)
            }
            let limit = try await ServerApp.withStorage(url, logger: quietLogger) { storage in
                let before = try #require(try await storage.ownTracksLegacyIDsBefore())
                #expect(abs(before.timeIntervalSince1970 - OwnTracksLegacyIDs.limit(migratedAt: Date())) < 600)
                let recent = Int(Date().timeIntervalSince1970) - 60
                try await withLiveServer(on: storage) { server in
                    for tst in [1_700_000_000, recent, recent] {
                        let reply = try await server.send(
                            "POST", "/pub", token: nil, body: Self.message(tst: tst), headers: basic("derived-id-pin", "pin-token"))
                        #expect(reply.status == 200)
                    }
                }
                let ids = try await storage.ownTracksLocations(device: "derived-id-pin", from: .distantPast, to: .distantFuture, limit: nil)
                    .map(\.record.id)
                #expect(ids == [Self.legacyID, OwnTracksParser.derivedID("derived-id-pin", "\(Double(recent))|47.37|8.54")])
                return before
            }
            // The limit was set once: migrating again, as every start does, keeps it.
            let again = try await ServerApp.withStorage(url, logger: quietLogger) { storage in
                try await storage.ownTracksLegacyIDsBefore()
            }
            #expect(again == limit)
        }
    }

    /// Runs `body` with the database at `url` migrated only as far as servers before time-ordered
    /// OwnTracks ids migrated it.
    private func withEarlierSchema(_ url: DatabaseURL, _ body: @escaping @Sendable (any TrackStorage) async throws -> Void) async throws {
        switch url {
        case .sqlite(let path):
            let storage = try SQLiteTrackStorage(path: path)
            defer { try? storage.closeNow() }
            try storage.migrate(upTo: "v6-owntracks")
            try await body(storage)
        case .postgres(let settings):
            let storage = try PostgresTrackStorage(settings, logger: quietLogger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await storage.run() }
                defer { group.cancelAll() }
                try await storage.migrate(upTo: 6, at: Date())
                try await body(storage)
            }
        }
    }

    @Test("/pub stores a message's version 4 or version 7 _id and drops its resend", arguments: StorageKind.available)
    func pub(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let ids = Self.ids()
            let tst = Int(Date().timeIntervalSince1970) - 600
            for round in 0..<2 {
                for (index, id) in ids.enumerated() {
                    let message =
                        #"{"_type":"location","_id":"\#(id.uuidString.lowercased())","lat":47.37,"lon":8.54,"tst":\#(tst + index),"acc":9}"#
                    let reply = try await server.send(
                        "POST", "/pub", token: nil, body: Data(message.utf8), headers: basic(server.device, server.token))
                    #expect(reply.status == 200, "round \(round), \(id)")
                }
            }
            let stored = try await server.storage.ownTracksLocations(
                device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(Set(stored.map(\.record.id)) == Set(ids))
            #expect(stored.count == ids.count)
        }
    }
}
