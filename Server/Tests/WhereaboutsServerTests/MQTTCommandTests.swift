import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsMQTT

@testable import WhereaboutsServer

/// Commands for a device in the apps' MQTT mode, through a real mosquitto: the phone is a subscriber
/// to its `cmd` topic, as the OwnTracks app is.
@Suite("MQTT device commands", .enabled(if: MosquittoBroker.installed, "\(MosquittoBroker.missing)"))
struct MQTTCommandTests {
    /// What the phone received on its `cmd` topic.
    private actor Phone {
        var messages: [[UInt8]] = []
        var subscribed = false
        func add(_ payload: [UInt8]) { messages.append(payload) }
        func markSubscribed() { subscribed = true }
    }

    @Test(
        "a queued command goes out on the device's cmd topic with its next location, once, sealed for a device with a key; the cmd topic's messages are not stored",
        arguments: StorageKind.available)
    func commands(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            try await MosquittoBroker.with { broker in try await Self.commands(storage, broker) }
        }
    }

    private static func commands(_ storage: any TrackStorage, _ broker: MosquittoBroker) async throws {
        let (device, topic) = try await MQTTIngestTests.addDevice(storage)
        let subscription = MQTTSubscription(
            host: "127.0.0.1", port: broker.port, clientID: uniqueDevice("server"), topics: MQTTSettings.defaultTopics, keepAlive: 5)
        try await MQTTIngestTests.withServer(storage, subscription) { try await exchange(storage, broker, device: device, topic: topic) }
    }

    /// The phone's side of ``commands(_:)``, with the server running.
    private static func exchange(_ storage: any TrackStorage, _ broker: MosquittoBroker, device: String, topic: String) async throws {
        try await MQTTIngestTests.awaitSubscription(broker, storage)
        let phone = Phone()
        let subscriber = Task {
            let subscription = MQTTSubscription(
                host: "127.0.0.1", port: broker.port, clientID: uniqueDevice("phone"), topics: [topic + "/cmd"], keepAlive: 5)
            await MQTTSubscriber(subscription, logger: quietLogger).run(onSubscribed: { await phone.markSubscribed() }) {
                await phone.add($0.payload)
                return []
            }
        }
        defer { subscriber.cancel() }
        try #require(try await MQTTIngestTests.eventually(within: 30) { await phone.subscribed })

        try await queueCommand(.reportLocation, device: device, in: storage)
        try await broker.publish([MQTTIngestTests.location(0)], topic: topic)
        #expect(try await MQTTIngestTests.eventually(within: 30) { await phone.messages.count == 1 })
        let plain = try #require(await phone.messages.first)
        #expect(String(decoding: plain, as: UTF8.self) == #"{"_type":"cmd","action":"reportLocation"}"#)

        try await broker.publish([MQTTIngestTests.location(1)], topic: topic)
        #expect(try await MQTTIngestTests.eventually(within: 30) { try await MQTTIngestTests.latitudes(storage, device).count == 2 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(await phone.messages.count == 1, "a command goes out once")
        #expect(try await storage.messages(device: device).isEmpty, "the cmd message the server published came back to it and was not kept")

        var profile = try #require(try await storage.ownTracksProfile(device: device))
        profile.key = "a shared secret"
        #expect(try await storage.saveOwnTracksProfile(profile))
        try await queueCommand(.reportLocation, device: device, in: storage)
        let sealed = OwnTracksSecretBox(passphrase: "a shared secret").seal(
            Data(MQTTIngestTests.location(2).utf8))
        try await broker.publish([#"{"_type":"encrypted","data":"\#(sealed)"}"#], topic: topic)
        #expect(try await MQTTIngestTests.eventually(within: 30) { await phone.messages.count == 2 })
        let message = try #require(
            try JSONSerialization.jsonObject(with: Data(await phone.messages.last ?? [])) as? [String: Any])
        #expect(message["_type"] as? String == "encrypted")
        let opened = try OwnTracksSecretBox(passphrase: "a shared secret").open(message["data"] as? String ?? "")
        #expect(String(decoding: opened, as: UTF8.self) == #"{"_type":"cmd","action":"reportLocation"}"#)
    }
}
