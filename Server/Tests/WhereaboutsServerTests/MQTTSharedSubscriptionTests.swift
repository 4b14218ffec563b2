import Foundation
import Testing
import WhereaboutsMQTT
import WhereaboutsServer

/// Shared subscriptions through a real mosquitto: instances in one group split the messages, and
/// servers over one database store each message once.
@Suite("MQTT shared subscriptions", .enabled(if: MosquittoBroker.installed, "\(MosquittoBroker.missing)"))
struct MQTTSharedSubscriptionTests {
    /// What each subscriber received, by its index.
    private actor Received {
        var messages: [Int: [String]] = [:]
        var subscribed: Set<Int> = []
        func add(_ message: String, to index: Int) { messages[index, default: []].append(message) }
        func markSubscribed(_ index: Int) { subscribed.insert(index) }
    }

    @Test("two subscribers in one share group split the messages: each delivered to exactly one of them")
    func subscribersSplit() async throws {
        let broker = try await MosquittoBroker.start()
        let received = Received()
        let group = "ingest-\(UUID().uuidString.prefix(6))"
        let subscribers = (0..<2).map { index in
            let subscription = MQTTSubscription(
                host: "127.0.0.1", port: broker.port, clientID: "\(group)-\(index)", topics: ["owntracks/+/+"], shareGroup: group,
                keepAlive: 5)
            return Task {
                await MQTTSubscriber(subscription, logger: quietLogger).run(onSubscribed: { await received.markSubscribed(index) }) {
                    await received.add(String(decoding: $0.payload, as: UTF8.self), to: index)
                    return []
                }
            }
        }
        do {
            try #require(try await MQTTIngestTests.eventually(within: 30) { await received.subscribed.count == 2 })
            let sent = (0..<400).map { "message \($0)" }
            try await broker.publish(sent, topic: "owntracks/jane/phone")
            let all = try await MQTTIngestTests.eventually(within: 30) { await received.messages.values.map(\.count).reduce(0, +) >= 400 }
            let messages = await received.messages
            #expect(all)
            #expect(messages.values.flatMap { $0 }.sorted() == sent.sorted(), "every message once, to one of the two")
            #expect(
                messages[0, default: []].count > 0 && messages[1, default: []].count > 0,
                "both took a share: \(messages.mapValues(\.count))")
        } catch {
            for subscriber in subscribers { subscriber.cancel() }
            await broker.stop()
            throw error
        }
        for subscriber in subscribers { subscriber.cancel() }
        await broker.stop()
    }

    @Test("two servers over one database, sharing the subscription, store each message once", arguments: StorageKind.available)
    func serversShare(_ kind: StorageKind) async throws {
        try await MosquittoBroker.with { broker in
            try await withIsolatedDatabase(kind) { url in
                try await ServerApp.withStorage(url, logger: quietLogger) { first in
                    try await ServerApp.withStorage(url, logger: quietLogger) { second in
                        try await Self.share(broker, first, second)
                    }
                }
            }
        }
    }

    /// Serves `first` and `second` in one share group, publishes, and checks each message is stored once.
    private static func share(_ broker: MosquittoBroker, _ first: any TrackStorage, _ second: any TrackStorage) async throws {
        let (device, topic) = try await MQTTIngestTests.addDevice(first)
        let url = "mqtt://127.0.0.1:\(broker.port)?share=servers&client_id="
        let subscriptions = try (0..<2).map {
            try MQTTSettings.parse(url + "server-\($0)-\(UUID().uuidString.prefix(6))", hostName: "test")
        }
        try await MQTTIngestTests.withServer(first, subscriptions[0]) {
            try await MQTTIngestTests.withServer(second, subscriptions[1]) {
                try await publishAndCount(broker, first, second, device: device, topic: topic)
            }
        }
    }

    /// Publishes 300 messages to `topic` and checks `device` has each stored once.
    private static func publishAndCount(
        _ broker: MosquittoBroker, _ first: any TrackStorage, _ second: any TrackStorage, device: String, topic: String
    ) async throws {
        try await MQTTIngestTests.awaitSubscription(broker, first)
        try await broker.publish((0..<300).map { MQTTIngestTests.location($0) }, topic: topic)
        let stored = try await MQTTIngestTests.eventually(within: 30) { try await MQTTIngestTests.latitudes(first, device).count >= 300 }
        try await Task.sleep(for: .milliseconds(500))
        let latitudes = try await MQTTIngestTests.latitudes(second, device)
        #expect(stored)
        #expect(latitudes.count == 300 && Set(latitudes).count == 300, "0 lost, 0 duplicated: \(latitudes.count) stored")
    }

    @Test("share= names the group; a client id per machine by default; a bad group or parameter is refused with the URL's shape")
    func parsing() throws {
        let shared = try MQTTSettings.parse("mqtt://broker:1884?share=ingest", hostName: "box-1")
        #expect(shared.filters == MQTTSettings.defaultTopics.map { "$share/ingest/\($0)" })
        #expect(shared.clientID == "whereabouts-server-box-1" && shared.port == 1884)
        #expect(try MQTTSettings.parse("mqtt://broker?share=ingest&client_id=a", hostName: "box-1").clientID == "a")
        #expect(try MQTTSettings.parse("mqtt://broker").filters == MQTTSettings.defaultTopics)
        #expect(try MQTTSettings.parse("mqtt://broker").clientID == "whereabouts-server")
        for (url, problem) in [
            ("mqtt://broker?share=a/b", "is not a group name"), ("mqtt://broker?share=", "is not a group name"),
            ("mqtt://broker?shared=x", "the parameter shared is not known"), ("http://broker", "is not an mqtt:// or mqtts:// URL"),
        ] {
            #expect {
                try MQTTSettings.parse(url)
            } throws: { error in
                "\(error)".contains(problem) && "\(error)".contains("share=GROUP")
            }
        }
    }
}
