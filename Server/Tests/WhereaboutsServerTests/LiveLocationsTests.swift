import Foundation
import HTTPTypes
import HummingbirdWSClient
import NIOWebSocket
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// `/ws/last` through a real WebSocket client, as OwnTracks Frontend uses it: it logs in as for the
/// Recorder API, sends `LAST`, and reads each new location as a `_type: "location"` message.
@Suite("the live feed /ws/last")
struct LiveLocationsTests {
    private static func basic(_ user: String, _ password: String) -> String {
        "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"
    }

    /// Connects to `server`'s `/ws/last` with `authorization`, sends `LAST`, runs `meanwhile` once
    /// the first message came, and returns the first `count` messages, as JSON objects; fails after 20 s.
    private func feed(
        _ server: LiveServer, authorization: String, count: Int, meanwhile: @escaping @Sendable () async throws -> Void
    ) async throws -> [[String: Any]] {
        let texts = try await Self.listen(server, authorization: authorization, until: count, within: 20, meanwhile: meanwhile).texts
        try #require(texts.count == count, "no \(count) messages on /ws/last within 20 s: \(texts)")
        return texts.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test(
        "LAST answers the newest location of each device the login may read; then every location stored by /pub and the batch API arrives, another user's not",
        arguments: StorageKind.available)
    func liveFeed(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            // A user of its own: tests share one PostgreSQL database.
            let user = uniqueDevice("jane")
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device, user: user, name: "phone")))
            let stranger = uniqueDevice("other")
            try await server.storage.addDevice(id: stranger, tokenHash: Tokens.hash("other-token"), at: Date())
            let earlier = wireLocations(3)
            _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(earlier))
            let pub = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(Int(Date().timeIntervalSince1970) - 60),"tid":"jp","batt":77}"#
            let later = wireLocations(1).map { location in
                var moved = location
                moved.latitude = 47.5
                return moved
            }
            let messages = try await feed(server, authorization: Self.basic(server.device, server.token), count: 3) {
                // Another device's location, which this login may not read, comes first and must not arrive.
                _ = try await server.send(
                    "POST", "/pub", token: nil, body: Data(#"{"_type":"location","lat":1,"lon":1,"tst":1700000000}"#.utf8),
                    headers: ["Authorization": Self.basic(stranger, "other-token")])
                let published = try await server.send(
                    "POST", "/pub", token: nil, body: Data(pub.utf8), headers: ["Authorization": Self.basic(server.device, server.token)])
                #expect(published.status == 200)
                _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(later))
            }
            #expect(messages.count == 3)
            #expect(messages.allSatisfy { $0["_type"] as? String == "location" && $0["username"] as? String == user })
            #expect(messages.allSatisfy { $0["device"] as? String == "phone" })
            #expect(messages.first?["lat"] as? Double == earlier[2].latitude, "LAST: the newest stored")
            #expect(messages.dropFirst().first?["lat"] as? Double == 52.5 && messages.dropFirst().first?["batt"] as? Int == 77)
            #expect(messages.last?["lat"] as? Double == later[0].latitude, "the batch's location")
        }
    }

    @Test(
        "a token rotated or removed while its feed is open ends the feed: it closes (1008) and sends nothing stored after",
        arguments: StorageKind.available)
    func revokedLogin(_ kind: StorageKind) async throws {
        for removed in [false, true] {
            try await withLiveServer(kind) { server in
                #expect(
                    try await server.storage.saveOwnTracksProfile(
                        OwnTracksProfile(device: server.device, user: uniqueDevice("jane"), name: "p")))
                _ = try await server.send(
                    "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(1)))
                let (texts, closed) = try await Self.listen(server, authorization: Self.basic(server.device, server.token)) {
                    if removed {
                        #expect(try await server.storage.removeDevice(server.device) != nil)
                        try await server.storage.addDevice(id: server.device, tokenHash: Tokens.hash("new-token"), at: Date())
                    } else {
                        #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash("new-token")))
                    }
                    try await Task.sleep(for: .seconds(1.5))
                    let stored = try await server.send(
                        "POST", "/v1/devices/\(server.device)/locations", token: "new-token", body: batchBody(wireLocations(1)))
                    #expect(stored.status == 200)
                }
                #expect(texts.count == 1, "LAST's answer only: \(texts)")
                #expect(closed == .policyViolation)
            }
        }
    }

    /// Connects to `server`'s `/ws/last` with `authorization`, sends `LAST`, runs `meanwhile` once the
    /// first message came, and returns the messages received (the first `count` of them, when given)
    /// and how the server closed the feed (`nil` while it was open: `count` came, or `seconds` passed).
    private static func listen(
        _ server: LiveServer, authorization: String, until count: Int? = nil, within seconds: Double = 10,
        meanwhile: @escaping @Sendable () async throws -> Void
    ) async throws -> (texts: [String], closed: WebSocketErrorCode?) {
        let received = Received()
        let headers: HTTPFields = [.authorization: authorization]
        let outcome = try await withThrowingTaskGroup(of: WebSocketErrorCode??.self) { group in
            group.addTask {
                let close = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(server.port)/ws/last", configuration: .init(additionalHeaders: headers), logger: quietLogger
                ) { inbound, outbound, _ in
                    try await outbound.writeTextMessage("LAST")
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        let taken = await received.append(text)
                        if taken == 1 { try await meanwhile() }
                        if taken == count { return }
                    }
                }
                return .some(close?.closeCode)
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return .none
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        return (await received.texts, outcome ?? nil)
    }

    @Test("without a login /ws/last is refused (401 naming the logins); a plain GET with one gets 426", arguments: [StorageKind.sqlite])
    func refusals(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(server.port)/ws/last", logger: quietLogger) { _, _, _ in }
            }
            let anonymous = try await server.send("GET", "/ws/last", token: nil)
            #expect(anonymous.status == 401)
            #expect(server.json(anonymous)["message"] as? String == "log in with a device token or the admin token")
            let plain = try await server.send(
                "GET", "/ws/last", token: nil, headers: ["Authorization": Self.basic(server.device, server.token)])
            #expect(plain.status == 426)
            #expect((server.json(plain)["message"] as? String)?.contains("send LAST") == true)
        }
    }
}

/// The texts a WebSocket handler received.
private actor Received {
    var texts: [String] = []
    var count: Int { texts.count }

    /// Keeps `text`; returns how many there are.
    func append(_ text: String) -> Int {
        texts.append(text)
        return texts.count
    }
}
