import Foundation
import WhereaboutsCore
import WhereaboutsMQTT

extension API {
    /// Stores one message received over MQTT as `/pub` stores it (``store(_:text:kind:account:)``):
    /// the device is the one whose OwnTracks topic (`owntracks/USER/DEVICE`) the message was
    /// published to, or to one of its subtopics. Returns normally, so the message is acknowledged,
    /// once it is stored, or when it can never be (an unknown topic, a message refused as `/pub`
    /// would refuse it, which includes data the database refuses whenever it is tried:
    /// ``UnstorableData``): then it is logged with the reason. Throws, so the broker delivers it
    /// again, when storing failed in a way that may pass.
    ///
    /// A location takes the device's due commands, as on `/pub`; they are returned as the `cmd`
    /// messages to publish on the device's `…/cmd` topic (encrypted for a device with a key), which
    /// the app subscribes to. Messages on a `…/cmd` topic are commands to a device (ours, or another
    /// tool's), never stored.
    func ingest(_ publish: MQTTPacket.Publish) async throws -> [MQTTMessage] {
        let parts = publish.topic.split(separator: "/", omittingEmptySubsequences: false)
        // No topic of ours holds U+0000 (MQTT forbids it, and PostgreSQL could not look it up).
        guard parts.count >= 3, !publish.topic.unicodeScalars.contains("\u{0}") else {
            logger.warning("MQTT: a message on \(publish.topic) was not stored: the topic is no owntracks/USER/DEVICE")
            return []
        }
        if parts.count == 4, parts[3] == "cmd" { return [] }
        let topic = parts.prefix(3).joined(separator: "/")
        var cached = true
        // A cached account is confirmed by the location's write, or read again for other messages
        // and after a refusal: when it changed, the topic is looked up again and the message tried again.
        for _ in 0..<3 {
            let known = cached ? mqttAccounts[topic] : nil
            cached = known != nil
            let found = if let known { known } else { try await mqttAccount(topic: topic) }
            guard let account = found else {
                logger.warning(
                    "MQTT: a message on \(publish.topic) was not stored: no device has the topic \(topic); add one with device add and device set-user"
                )
                return []
            }
            do {
                let (message, text, kind) = try Self.open(Data(publish.payload), profile: account.profile)
                if cached, kind != .location { try await confirm(account) }
                let commands = try await store(message, text: text, kind: kind, account: account) ?? []
                return try commands.map { command in
                    MQTTMessage(
                        topic: topic + "/cmd",
                        payload: Array(try Self.ownTracksMessage(OwnTracksWire.Command(command), key: account.profile.key)))
                }
            } catch is CredentialChanged {
            } catch let refusal as APIError where refusal.status.kind == .clientError {
                // A refusal with a cached account may be the stale cache's (a key changed meanwhile).
                // Any other, delivered again, would fail again, and hold up every message after it.
                var stale = false
                if cached { stale = try await !holds(account) }
                if !stale {
                    logger.warning("MQTT: a message on \(publish.topic) was not stored: \(refusal.message)")
                    return []
                }
            }
            mqttAccounts.forget(topic)
            cached = false
        }
        throw CredentialChanged(device: topic)
    }

    /// The account of the device whose OwnTracks topic is `topic`, read from storage and cached.
    private func mqttAccount(topic: String) async throws -> OwnTracksAccount? {
        guard let profile = try await storage.ownTracksProfile(topic: topic),
            let account = try await storage.ownTracksAccount(device: profile.device)
        else { return nil }
        mqttAccounts.remember(account, for: topic)
        return account
    }
}

extension API {
    /// A command as the OwnTracks app reads it on its `cmd` topic: the `cmd` message, sealed in an
    /// `encrypted` one for a device with a key.
    static func ownTracksMessage(_ command: OwnTracksWire.Command, key: String?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let plaintext = try encoder.encode(command)
        guard let key else { return plaintext }
        return try JSONSerialization.data(withJSONObject: [
            "_type": "encrypted", "data": OwnTracksSecretBox(passphrase: key).seal(plaintext),
        ])
    }
}
