import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer

/// Two `whereabouts-server` processes on one PostgreSQL (over TLS, verify-full) behave as one.
@Suite("many instances on one PostgreSQL", .enabled(if: TLSPostgres.installed != nil, "\(TLSPostgres.missing)"))
struct MultiInstanceTests {
    private static let admin = "multi-instance-admin"

    /// Posts `body` to `/v1/devices/fleet/locations` on `server`.
    private func post(_ server: ServerProcess, token: String, _ body: Data) async throws -> BatchReply {
        let reply = try await URLSessionTransport().send(
            OutgoingRequest(
                method: "POST", url: server.base.appendingPathComponent("v1/devices/fleet/locations"),
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: body),
            timeout: 30)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return try JSONDecoder().decode(BatchReply.self, from: reply.body)
    }

    /// The ids of the commands in answers to `count` batches sent at once, alternating between `servers`.
    private func commandsAnswered(_ servers: [ServerProcess], token: String, count: Int) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<count {
                group.addTask {
                    try await post(servers[index % servers.count], token: token, batchBody(wireLocations(1))).commands.map(\.id)
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    @Test(
        "the same batches sent to both at once are stored once each, none lost; a command goes out with one answer at a time and stays until acknowledged"
    )
    func twoInstances() async throws {
        try await withTLSPostgres { cluster in
            let database = cluster.url("sslmode=verify-full&sslrootcert=\(cluster.authority)")
            let token = try await ServerProcess.addDevice("fleet", database: database)
            #expect(token.count == 43)
            // Leases of 8 s: all 12 answers of a round must come within one lease, which a loaded
            // machine may not manage in 1 s.
            let lease = 8.0
            let arguments = ["--admin-token", Self.admin, "--command-lease", "\(lease)"]
            async let first = ServerProcess(database: database, arguments: arguments)
            async let second = ServerProcess(database: database, arguments: arguments)
            let servers = try await [first, second]

            let start = Date().addingTimeInterval(-40_000)
            let batches = (0..<40).map { wireLocations(250, start: start.addingTimeInterval(Double($0 * 250))) }
            let replies = try await withThrowingTaskGroup(of: BatchReply.self) { group in
                for batch in batches {
                    for server in servers { group.addTask { try await post(server, token: token, batchBody(batch)) } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.map(\.accepted).reduce(0, +) == 10_000, "each location stored by exactly one instance")
            #expect(replies.map(\.duplicate).reduce(0, +) == 10_000, "and recognised as a duplicate by the other")
            let history = try await URLSessionTransport().send(
                OutgoingRequest(
                    method: "GET", url: servers[1].base.appendingPathComponent("v1/devices/fleet/locations"),
                    headers: ["Authorization": "Bearer \(token)"],
                    body: Data()),
                timeout: 30)
            let held = try JSONDecoder().decode(History.self, from: history.body).locations.map(\.id)
            #expect(held.count == 10_000)
            #expect(Set(held) == Set(batches.joined().map(\.id)))

            var queued: [String] = []
            for (index, command) in [
                #"{"type":"reportLocation"}"#, #"{"type":"startActiveTracking","minutes":5}"#, #"{"type":"reportLocation"}"#,
            ].enumerated() {
                let reply = try await URLSessionTransport().send(
                    OutgoingRequest(
                        method: "POST", url: servers[index % 2].base.appendingPathComponent("v1/devices/fleet/commands"),
                        headers: ["Authorization": "Bearer \(Self.admin)", "Content-Type": "application/json"], body: Data(command.utf8)),
                    timeout: 10)
                #expect(reply.status == 202)
                queued.append(try JSONDecoder().decode(DeviceCommand.self, from: reply.body).id)
            }
            let once = try await commandsAnswered(servers, token: token, count: 12)
            #expect(once.sorted() == queued.sorted(), "every command in exactly one of 12 answers at once")
            try await Task.sleep(for: .seconds(lease + 0.5))
            let again = try await commandsAnswered(servers, token: token, count: 12)
            #expect(again.sorted() == queued.sorted(), "not acknowledged: each goes out once more after its lease, still once")
            let acknowledgement = try JSONEncoder().encode(LocationBatch(locations: [], acknowledged: queued))
            #expect(try await post(servers[0], token: token, acknowledgement).commands.isEmpty)
            try await Task.sleep(for: .seconds(lease + 0.5))
            #expect(try await commandsAnswered(servers, token: token, count: 4).isEmpty, "acknowledged commands are gone on every instance")
            for server in servers { await server.signal(SIGTERM) }
        }
    }

    private struct History: Decodable {
        let locations: [WireLocation]
    }
}
