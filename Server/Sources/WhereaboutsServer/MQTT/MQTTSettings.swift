import Foundation
import WhereaboutsMQTT

/// `serve --mqtt`'s URL: `mqtt://[user[:password]@]host[:port][?client_id=ID&topics=FILTER,FILTER]`.
public enum MQTTSettings {
    /// OwnTracks' topics: the apps publish locations to `owntracks/USER/DEVICE` and events, cards
    /// and commands to its `/event`, `/info` and `/cmd` subtopics.
    public static let defaultTopics = ["owntracks/+/+", "owntracks/+/+/event", "owntracks/+/+/info", "owntracks/+/+/cmd"]

    /// The subscription `url` names.
    /// - Throws: ``ServerError/usage(_:)`` naming what is wrong with the URL and how to write it.
    public static func parse(_ url: String) throws -> MQTTSubscription {
        let shape = "write mqtt://[user[:password]@]host[:port][?client_id=ID&topics=owntracks/+/+,…]"
        guard let components = URLComponents(string: url), components.scheme == "mqtt", let host = components.host, !host.isEmpty else {
            throw ServerError.usage("--mqtt \(url.prefix(80)) is not an mqtt:// URL with a host; \(shape) (mqtts is not supported)")
        }
        let items = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        if let unknown = items.keys.first(where: { !["client_id", "topics"].contains($0) }) {
            throw ServerError.usage("--mqtt: the parameter \(unknown) is not known; \(shape)")
        }
        let topics = items["topics"].map { $0.split(separator: ",").map(String.init) } ?? defaultTopics
        guard !topics.isEmpty else { throw ServerError.usage("--mqtt: topics= names no topic; \(shape)") }
        let clientID = items["client_id"] ?? "whereabouts-server"
        guard !clientID.isEmpty else { throw ServerError.usage("--mqtt: client_id is empty; \(shape)") }
        return MQTTSubscription(
            host: host, port: components.port ?? 1883, clientID: clientID, username: components.user?.removingPercentEncoding,
            password: components.password?.removingPercentEncoding, topics: topics)
    }
}
