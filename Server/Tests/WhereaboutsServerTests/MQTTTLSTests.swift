import Foundation
import Testing
import WhereaboutsMQTT
import WhereaboutsServer

/// `mqtts`: the subscriber speaks TLS to a mosquitto that listens for TLS only, with a certificate
/// for `localhost` from an authority the test makes with openssl.
@Suite(
    "MQTT over TLS",
    .enabled(
        if: MosquittoBroker.installed && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
        "\(MosquittoBroker.missing), or openssl is missing (apt-get install openssl)"))
struct MQTTTLSTests {
    private actor Flag {
        var raised = false
        func raise() { raised = true }
    }

    @Test("mqtts with ca= stores what the phones publish over TLS; the system's authorities refuse the test's certificate")
    func tls() async throws {
        try await MosquittoBroker.with(tls: true) { broker in
            try await withStorage(.sqlite) { storage in try await Self.tls(broker, storage) }
        }
    }

    private static func tls(_ broker: MosquittoBroker, _ storage: any TrackStorage) async throws {
        let (device, topic) = try await MQTTIngestTests.addDevice(storage)
        let subscription = try MQTTSettings.parse(
            "mqtts://localhost:\(broker.port)?ca=\(broker.authority.path)&client_id=\(uniqueDevice("tls"))")
        try await MQTTIngestTests.withServer(storage, subscription) {
            try await MQTTIngestTests.awaitSubscription(broker, storage)
            try await broker.publish((0..<50).map { MQTTIngestTests.location($0) }, topic: topic)
            #expect(try await MQTTIngestTests.eventually(within: 30) { try await MQTTIngestTests.latitudes(storage, device).count == 50 })
        }

        let untrusting = MQTTSubscription(
            host: "localhost", port: broker.port, clientID: uniqueDevice("untrusting"), topics: ["owntracks/+/+"], tls: MQTTTLS(),
            keepAlive: 5)
        let subscribed = Flag()
        let refused = Task {
            await MQTTSubscriber(untrusting, logger: quietLogger).run(onSubscribed: { await subscribed.raise() }) { _ in [] }
        }
        defer { refused.cancel() }
        #expect(try await !MQTTIngestTests.eventually(within: 3) { await subscribed.raised }, "a certificate no trusted authority signed")
    }

    @Test("mqtts defaults to port 8883; ca= needs mqtts and a readable file")
    func parsing() throws {
        let secure = try MQTTSettings.parse("mqtts://broker")
        #expect(secure.port == 8883 && secure.tls == MQTTTLS())
        #expect(try MQTTSettings.parse("mqtt://broker").tls == nil)
        #expect(throws: ServerError.self) { try MQTTSettings.parse("mqtt://broker?ca=/etc/hostname") }
        #expect {
            try MQTTSettings.parse("mqtts://broker?ca=/nonexistent/ca.pem")
        } throws: { error in
            "\(error)".contains("/nonexistent/ca.pem is not a readable file")
        }
    }
}
