import Foundation
import WhereaboutsMQTT

extension API {
    /// Stores one message received over MQTT as `/pub` stores it (``store(_:text:kind:account:)``):
    /// the device is the one whose OwnTracks topic (`owntracks/USER/DEVICE`) the message was
    /// published to, or to one of its subtopics. Returns normally, so the message is acknowledged,
    /// once it is stored, or when it can never be (an unknown topic, a message refused as `/pub`
    /// would refuse it): then it is logged with the reason. Throws, so the broker delivers it again,
    /// when storing failed.
    func ingest(_ publish: MQTTPacket.Publish) async throws {
        let parts = publish.topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else {
            return logger.warning("MQTT: a message on \(publish.topic) was not stored: the topic is no owntracks/USER/DEVICE")
        }
        let topic = parts.prefix(3).joined(separator: "/")
        guard let profile = try await storage.ownTracksProfile(topic: topic),
            let account = try await storage.ownTracksAccount(device: profile.device)
        else {
            return logger.warning(
                "MQTT: a message on \(publish.topic) was not stored: no device has the topic \(topic); add one with device add and device set-user"
            )
        }
        do {
            let (message, text, kind) = try Self.open(Data(publish.payload), profile: account.profile)
            _ = try await store(message, text: text, kind: kind, account: account)
        } catch let refusal as APIError where refusal.status.kind == .clientError {
            logger.warning("MQTT: a message on \(publish.topic) was not stored: \(refusal.message)")
        }
    }
}
