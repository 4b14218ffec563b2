import Foundation
import PostgresNIO
import Testing
import WhereaboutsCore
import WhereaboutsMQTT
import WhereaboutsServer

/// MQTT ingest through a real Debian mosquitto of each test's own: messages the OwnTracks apps
/// publish are stored as `/pub` stores them, acknowledged only once stored, across broker restarts,
/// server absences and SIGKILLs.
@Suite("MQTT ingest through mosquitto", .enabled(if: MosquittoBroker.installed, "\(MosquittoBroker.missing)"))
struct MQTTIngestTests {
    /// An OwnTracks location message, number `index` of a run: its latitude tells it apart.
    static func location(_ index: Int, base: Double = 48) -> String {
        let tst = Int(Date().timeIntervalSince1970) - 50_000 + index
        return #"{"_type":"location","lat":\#(base + Double(index) * 1e-5),"lon":2.29,"tst":\#(tst),"acc":5,"tid":"mq"}"#
    }

    /// Waits up to `seconds` for `condition`; `false` when it never held.
    static func eventually(within seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    /// The device's stored locations' latitudes.
    static func latitudes(_ storage: any TrackStorage, _ device: String) async throws -> [Double] {
        var latitudes: [Double] = []
        try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 5000) {
            latitudes += $0.map(\.fix.coordinate.latitude)
        }
        return latitudes
    }

    /// Adds a device with an OwnTracks user of its own; returns its id and topic.
    static func addDevice(_ storage: any TrackStorage) async throws -> (device: String, topic: String) {
        let device = uniqueDevice("mq")
        let user = uniqueDevice("user")
        try await storage.addDevice(id: device, tokenHash: Tokens.hash(device), at: Date())
        #expect(try await storage.saveOwnTracksProfile(OwnTracksProfile(device: device, user: user, name: "phone")))
        return (device, "owntracks/\(user)/phone")
    }

    /// Serves with `subscription` until cancelled.
    static func serve(_ storage: any TrackStorage, _ subscription: MQTTSubscription) -> Task<Void, any Error> {
        Task {
            try await ServerApp.serve(
                storage: storage, host: "127.0.0.1", port: 0, settings: ServerSettings(rateLimit: 0), mqtt: subscription,
                logger: quietLogger)
        }
    }

    /// Serves with `subscription` while `body` runs, then stops the server and waits for its end: a
    /// storage must not close under a server still writing to it (a PostgreSQL pool waits for it).
    static func withServer<T>(
        _ storage: any TrackStorage, _ subscription: MQTTSubscription, _ body: () async throws -> T
    ) async throws -> T {
        let server = serve(storage, subscription)
        do {
            let value = try await body()
            server.cancel()
            _ = await server.result
            return value
        } catch {
            server.cancel()
            _ = await server.result
            throw error
        }
    }

    /// Publishes a location of a probe device until one is stored: the server has subscribed.
    static func awaitSubscription(_ broker: MosquittoBroker, _ storage: any TrackStorage) async throws {
        let (probe, topic) = try await addDevice(storage)
        var index = 0
        let subscribed = try await eventually(within: 60) {
            index += 1
            try await broker.publish([location(index, base: 10)], topic: topic)
            return try await !latitudes(storage, probe).isEmpty
        }
        try #require(subscribed, "the server never subscribed")
    }

    @Test(
        "locations, a card, a transition, exported regions and a status published to mosquitto are stored; an unknown topic is passed over; the broker restarted, the server reconnects; what was published while the server was away arrives when it returns",
        arguments: StorageKind.available)
    func ingest(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            var broker = try await MosquittoBroker.start()
            do {
                try await Self.ingest(storage, broker: &broker)
            } catch {
                await broker.stop()
                throw error
            }
            await broker.stop()
        }
    }

    /// The steps of ``ingest(_:)``; `broker` is restarted on the way.
    private static func ingest(_ storage: any TrackStorage, broker: inout MosquittoBroker) async throws {
        let (device, topic) = try await addDevice(storage)
        let subscription = MQTTSubscription(
            host: "127.0.0.1", port: broker.port, clientID: uniqueDevice("whereabouts"), topics: MQTTSettings.defaultTopics, keepAlive: 5)
        var server = serve(storage, subscription)
        try await awaitSubscription(broker, storage)

        try await broker.publish([location(0)], topic: "owntracks/nobody/nothing")
        try await broker.publish((0..<200).map { location($0) }, topic: topic)
        try await broker.publish([#"{"_type":"card","name":"Jane","tid":"mq"}"#], topic: topic + "/info")
        let tst = Int(Date().timeIntervalSince1970) - 100
        let transition =
            #"{"_type":"transition","event":"enter","desc":"home","tst":\#(tst),"lat":48,"lon":2.29,"acc":5,"wtst":1700000000,"t":"c"}"#
        try await broker.publish([transition], topic: topic + "/event")
        try await broker.publish([OwnTracksBooklet.waypoints], topic: topic + "/waypoints")
        try await broker.publish([OwnTracksBooklet.status], topic: topic + "/status")
        #expect(try await eventually(within: 30) { try await latitudes(storage, device).count == 200 })
        #expect(try await eventually(within: 10) { try await storage.lastMessage("card", device: device) != nil })
        // Each message is stored as it is taken, not in the order of their topics: on PostgreSQL the
        // card's write may commit before the transition's.
        #expect(
            try await eventually(within: 10) { try await storage.events(device: device, from: .distantPast, to: .distantFuture).count == 1 }
        )
        #expect(try await eventually(within: 10) { try await storage.regions(device: device).count == 2 }, "the exported regions")
        #expect(try await eventually(within: 10) { try await storage.lastMessage("status", device: device) != nil })

        await broker.stop()
        broker = try await MosquittoBroker.start(folder: broker.folder, port: broker.port)
        let restarted = broker
        try await restarted.publish((200..<250).map { location($0) }, topic: topic)
        #expect(try await eventually(within: 30) { try await latitudes(storage, device).count == 250 }, "after the broker's restart")

        server.cancel()
        _ = await server.result
        try await restarted.publish((250..<350).map { location($0) }, topic: topic)
        server = serve(storage, subscription)
        let resumed = try await eventually(within: 30) { try await latitudes(storage, device).count == 350 }
        #expect(resumed, "the session resumed: what the broker kept for it")
        let stored = Set(try await latitudes(storage, device))
        let sent = Set((0..<350).map { 48 + Double($0) * 1e-5 })
        #expect(stored == sent, "each once")
        server.cancel()
        _ = await server.result
    }

    @Test(
        "PostgreSQL: a message whose data the database refuses for good (SQLSTATE class 22) is acknowledged, not delivered again, and holds up no other; U+0000 in a typed field is stored",
        .needsPostgres)
    func dataExceptionAcknowledged() async throws {
        try await withIsolatedDatabase(.postgres) { url in
            try await ServerApp.withStorage(url, logger: quietLogger) { storage in
                // A data exception no retry cures, raised by the database itself for one tid.
                try await refuseRows(of: "owntracks_location", when: "NEW.tid = 'poison'", in: storage)
                try await MosquittoBroker.with { broker in
                    let (poisoned, poisonedTopic) = try await Self.addDevice(storage)
                    let (other, otherTopic) = try await Self.addDevice(storage)
                    let subscription = MQTTSubscription(
                        host: "127.0.0.1", port: broker.port, clientID: uniqueDevice("whereabouts"), topics: MQTTSettings.defaultTopics,
                        keepAlive: 5)
                    let tst = Int(Date().timeIntervalSince1970) - 100
                    try await Self.withServer(storage, subscription) {
                        try await Self.awaitSubscription(broker, storage)
                        try await broker.publish(
                            [#"{"_type":"location","lat":1,"lon":2,"tst":\#(tst),"tid":"poison"}"#], topic: poisonedTopic)
                        try await broker.publish(
                            [#"{"_type":"location","lat":1,"lon":2,"tst":\#(tst + 1),"tid":"a\u0000","SSID":"\u0000"}"#],
                            topic: poisonedTopic)
                        try await broker.publish((0..<20).map { Self.location($0) }, topic: otherTopic)
                        #expect(try await Self.eventually(within: 10) { try await Self.latitudes(storage, other).count == 20 })
                        #expect(try await Self.eventually(within: 10) { try await Self.latitudes(storage, poisoned).count == 1 })
                    }
                    // Without the poison, a message the broker delivers again (not acknowledged) is now stored.
                    try await (storage as! PostgresTrackStorage).client.query(
                        "DROP TRIGGER refuse ON owntracks_location", logger: quietLogger)
                    try await Self.withServer(storage, subscription) {
                        try await broker.publish([Self.location(20)], topic: otherTopic)
                        #expect(try await Self.eventually(within: 30) { try await Self.latitudes(storage, other).count == 21 })
                        try await Task.sleep(for: .seconds(1))
                    }
                    let stored = try await storage.ownTracksLocations(device: poisoned, from: .distantPast, to: .distantFuture, limit: nil)
                    #expect(
                        stored.map(\.fields?.tid) == ["a\u{FFFD}"],
                        "the poisoned message was acknowledged, so never delivered again; the one with U+0000 is stored")
                }
            }
        }
    }

    @Test(
        "the server SIGKILLed again and again while messages arrive: each message stored exactly once, none lost (PUBACK only once stored)")
    func killedBeforeAcknowledging() async throws {
        let broker = try await MosquittoBroker.start()
        let path = temporaryFolderPath("mqtt-kill")
        let database = "sqlite:" + path
        _ = try await ServerProcess.addDevice("phone", database: database)
        _ = try await ServerProcess.run(["device", "set-user", "phone", "jane", "--name", "phone", "--database", database])
        let arguments = ["--mqtt", "mqtt://127.0.0.1:\(broker.port)?client_id=kill-test", "--log-level", "error"]
        var server = try await ServerProcess(database: database, arguments: arguments)
        do {
            try await ServerApp.withStorage(.sqlite(path: path), readOnly: true, logger: quietLogger) { storage in
                let subscribed = try await Self.eventually(within: 60) {
                    try await broker.publish([Self.location(0)], topic: "owntracks/jane/phone")
                    return try await !Self.latitudes(storage, "phone").isEmpty
                }
                try #require(subscribed)
            }
            let total = 5000
            try await broker.publish((1...total).map { Self.location($0) }, topic: "owntracks/jane/phone")
            for _ in 0..<5 {
                try await Task.sleep(for: .milliseconds(300))
                await server.signal(SIGKILL)
                server = try await ServerProcess(database: database, arguments: arguments)
            }
            try await ServerApp.withStorage(.sqlite(path: path), readOnly: true, logger: quietLogger) { storage in
                let all = try await Self.eventually(within: 60) { try await Self.latitudes(storage, "phone").count >= total + 1 }
                let latitudes = try await Self.latitudes(storage, "phone")
                #expect(all, "\(total + 1 - latitudes.count) lost")
                #expect(latitudes.count == total + 1 && Set(latitudes).count == total + 1, "0 lost, 0 duplicated")
            }
        } catch {
            await server.signal(SIGTERM)
            await broker.stop()
            throw error
        }
        await server.signal(SIGTERM)
        await broker.stop()
    }
}

/// A database file's path in a fresh temporary folder whose name starts with `name`.
private func temporaryFolderPath(_ name: String) -> String {
    String(ServerProcess.temporaryDatabase(named: name).dropFirst("sqlite:".count))
}
