import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// Data PostgreSQL refuses for good (SQLSTATE class 22) in one item of a write: the batch API stores
/// the others and rejects that item alone, `/pub` refuses the message with 422, and neither answers
/// 500, which a client would retry for ever. The database raises the error itself, from a trigger.
@Suite("PostgreSQL: an item whose data the database refuses for good")
struct UnstorableDataTests {
    /// Runs `body` against a server on an isolated PostgreSQL database whose `table` refuses a row
    /// `when` holds: with SQLSTATE `state` (22023, a data exception, unless said).
    private func withRefusingServer(
        table: String, when condition: String, state: String = "22023", _ body: @escaping @Sendable (LiveServer) async throws -> Void
    ) async throws {
        try await withIsolatedDatabase(.postgres) { url in
            try await ServerApp.withStorage(url, logger: quietLogger) { storage in
                try await refuseRows(of: table, when: condition, state: state, in: storage)
                try await withLiveServer(on: storage, body)
            }
        }
    }

    /// `count` wire locations, those at `refused` with the accuracy the trigger refuses (12.5 m).
    private func locations(_ count: Int, refused: Set<Int>) -> [WireLocation] {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded())
        return (0..<count).map { i in
            let fix = try! Fix(
                coordinate: Coordinate(latitude: 47.37 + Double(i) * 1e-4, longitude: 8.54),
                horizontalAccuracy: refused.contains(i) ? 12.5 : 6,
                timestamp: start.addingTimeInterval(Double(i)), source: .gps)
            return WireLocation(LocationRecord(fix: fix, trigger: .policy))
        }
    }

    /// The ids of the device's stored locations, oldest first.
    private func storedIDs(_ server: LiveServer) async throws -> [String] {
        let history = try await server.send("GET", "/v1/devices/\(server.device)/locations?format=json", token: LiveServer.adminToken)
        return (server.json(history)["locations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test(
        "a batch stores every location but those refused, rejects those by index with the SQLSTATE, and takes the device's command once; sent again, the same; an acknowledgement alone is still written",
        .needsPostgres)
    func batchStoresTheRest() async throws {
        try await withRefusingServer(table: "location", when: "NEW.acc = 12.5") { server in
            let command = try await queueCommand(.reportLocation, device: server.device, in: server.storage)
            var sent = locations(40, refused: [3, 17, 18])
            sent[0].latitude = 200
            let path = "/v1/devices/\(server.device)/locations"
            let reply = try await server.send("POST", path, token: server.token, body: batchBody(sent))
            #expect(reply.status == 200)
            let batch = try JSONDecoder().decode(BatchReply.self, from: reply.body)
            #expect(batch.accepted == 36 && batch.duplicate == 0)
            #expect(batch.rejected.map(\.index) == [0, 3, 17, 18], "the invalid one and the refused ones, in the batch's order")
            for rejection in batch.rejected.dropFirst() {
                #expect(rejection.reason.contains("SQLSTATE 22023") && rejection.reason.contains("refused by the test"))
                #expect(rejection.reason.contains("sending it again will not change that"))
            }
            #expect(batch.commands.map(\.id) == [command.id], "the command goes out once, though the batch was written in parts")
            let expected = sent.indices.filter { ![0, 3, 17, 18].contains($0) }.map { sent[$0].id }
            #expect(try await storedIDs(server) == expected)

            let again = try JSONDecoder().decode(
                BatchReply.self, from: try await server.send("POST", path, token: server.token, body: batchBody(sent)).body)
            #expect(again.accepted == 0 && again.duplicate == 36)
            #expect(again.rejected.map(\.index) == [0, 3, 17, 18])
            #expect(again.commands.isEmpty, "still under lease")
            #expect(try await storedIDs(server) == expected)

            let acknowledgement = try JSONEncoder().encode(LocationBatch(locations: [], acknowledged: [command.id]))
            #expect(try await server.send("POST", path, token: server.token, body: acknowledgement).status == 200)
            let left = try await server.storage.takeCommands(device: server.device, at: Date().addingTimeInterval(86_400))
            #expect(left.isEmpty, "an acknowledgement alone is still written, so the command is forgotten")
        }
    }

    @Test("a batch whose every valid location the database refuses is answered 422, naming each", .needsPostgres)
    func batchAllRefused() async throws {
        try await withRefusingServer(table: "location", when: "NEW.acc = 12.5") { server in
            let reply = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(locations(2, refused: [0, 1])))
            #expect(reply.status == 422)
            #expect(server.json(reply)["error"] as? String == "unstorable_locations")
            #expect((server.json(reply)["items"] as? [[String: Any]])?.compactMap { $0["index"] as? Int } == [0, 1])
            #expect(try await storedIDs(server).isEmpty)
        }
    }

    @Test("an error that may pass (not a data exception) still fails the whole batch with 500, storing nothing", .needsPostgres)
    func otherErrorsFailTheBatch() async throws {
        try await withRefusingServer(table: "location", when: "NEW.acc = 12.5", state: "P0001") { server in
            let reply = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(locations(5, refused: [2])))
            #expect(reply.status == 500, "the client sends it again")
            #expect(try await storedIDs(server).isEmpty)
        }
    }

    @Test("an event batch stores every event but the one refused, which it rejects by index", .needsPostgres)
    func eventsStoreTheRest() async throws {
        try await withRefusingServer(table: "event", when: "NEW.region_id = 'refused'") { server in
            let events = ["home", "refused", "work"].map { region in
                #"{"id":"\#(UUID().uuidString)","regionId":"\#(region)","kind":"enter","timestamp":"2025-06-01T10:00:00.000Z","latitude":47.3,"longitude":8.5}"#
            }
            let body = Data(#"{"events":[\#(events.joined(separator: ","))]}"#.utf8)
            let reply = try await server.send("POST", "/v1/devices/\(server.device)/events", token: server.token, body: body)
            #expect(reply.status == 200)
            let batch = try JSONDecoder().decode(BatchReply.self, from: reply.body)
            #expect(batch.accepted == 2)
            #expect(batch.rejected.map(\.index) == [1])
            #expect(batch.rejected.first?.reason.contains("SQLSTATE 22023") == true)
        }
    }

    @Test("/pub refuses a location the database refuses for good with 422 and the reason; the next location is stored", .needsPostgres)
    func pubRefuses() async throws {
        try await withRefusingServer(table: "owntracks_location", when: "NEW.tid = 'xx'") { server in
            let tst = Int(Date().timeIntervalSince1970) - 100
            func publish(_ tid: String, _ tst: Int) async throws -> HTTPReply {
                try await server.send(
                    "POST", "/pub", token: server.token,
                    body: Data(#"{"_type":"location","lat":1,"lon":2,"tst":\#(tst),"tid":"\#(tid)"}"#.utf8),
                    headers: ["X-Limit-D": server.device])
            }
            let refused = try await publish("xx", tst)
            #expect(refused.status == 422)
            #expect(server.json(refused)["error"] as? String == "unstorable_message")
            let message = server.json(refused)["message"] as? String ?? ""
            #expect(message.contains("the location message was not stored") && message.contains("SQLSTATE 22023"))
            #expect(try await publish("ok", tst + 1).status == 200)
            let stored = try await server.storage.ownTracksLocations(
                device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(stored.map(\.fields?.tid) == ["ok"])
        }
    }
}
