import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

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

    @Test("/pub derives the id of a message without _id as earlier servers did, so a resend across an upgrade is still a resend")
    func derivedIDIsStable() async throws {
        try await withLiveServer(.sqlite) { server in
            try await server.storage.addDevice(id: "derived-id-pin", tokenHash: Tokens.hash("pin-token"), at: Date())
            let message = #"{"_type":"location","lat":47.37,"lon":8.54,"tst":1700000000,"acc":9}"#
            let reply = try await server.send(
                "POST", "/pub", token: nil, body: Data(message.utf8), headers: basic("derived-id-pin", "pin-token"))
            #expect(reply.status == 200)
            let stored = try await server.storage.ownTracksLocations(
                device: "derived-id-pin", from: .distantPast, to: .distantFuture, limit: nil)
            // The first 16 bytes of SHA-256 over "derived-id-pin|1700000000.0|47.37|8.54" with version 5
            // bits: the id servers before version 7 record ids derived for this message.
            #expect(stored.map(\.record.id) == [UUID(uuidString: "108D8297-0C0B-5892-A305-D7AECE29C1D0")!])
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
