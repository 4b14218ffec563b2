import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("The server tells the time by the clock it is given")
struct ServerClockTests {
    /// 2025-01-01T00:00:00Z, long before the machine's clock.
    static let earlier = Date(timeIntervalSince1970: 1_735_689_600)

    @Test("locations are judged and received, and a login is dated, by the server's clock, never the machine's")
    func injectedClock() async throws {
        let clock = EngineClock(now: { Self.earlier }, sleep: EngineClock.system.sleep, spawn: EngineClock.system.spawn)
        try await withLiveServer(.sqlite, clock: clock) { server in
            let path = "/v1/devices/\(server.device)/locations"
            let fresh = wireLocations(3, start: Self.earlier.addingTimeInterval(-600))
            let stored = try await server.send("POST", path, token: server.token, body: batchBody(fresh))
            #expect(server.json(stored)["accepted"] as? Int == 3, "a location minutes before the server's now is stored")
            let today = wireLocations(1, start: Date().addingTimeInterval(-3600))
            let refused = try await server.send("POST", path, token: server.token, body: batchBody(today))
            #expect(refused.status == 422, "an hour ago on the machine's clock is in the server's future: \(server.json(refused))")

            let login = try await server.login(device: server.device, token: server.token)
            let cookie = try #require(login.headers["set-cookie"]?.split(separator: ";").first?.split(separator: "=").last)
            let kept = try #require(try await server.storage.login(idHash: Tokens.hash(String(cookie)), at: Self.earlier))
            #expect(kept.createdAt == Self.earlier)
            #expect(kept.expiresAt == Self.earlier.addingTimeInterval(ServerSettings().loginLifetime))
        }
    }

    @Test("the ids of the commands the admin queues come from the generator the server is given")
    func injectedIDs() async throws {
        let fixed = UUID(uuidString: "01900000-0000-7000-8000-000000000001")!
        let mint: @Sendable (Date) -> UUID = { _ in fixed }
        try await withLiveServer(.sqlite, recordIDs: mint) { server in
            let queued = try await server.send(
                "POST", "/v1/devices/\(server.device)/commands", token: LiveServer.adminToken,
                body: Data(#"{"type":"reportLocation"}"#.utf8))
            #expect(server.json(queued)["id"] as? String == fixed.uuidString.lowercased(), "\(server.json(queued))")
        }
    }
}
