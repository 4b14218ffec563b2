import Foundation
import WhereaboutsMQTT

/// `serve --mqtt`'s URL: `mqtt[s]://[user[:password]@]host[:port][?client_id=ID&topics=FILTER,FILTER&share=GROUP&ca=FILE]`:
/// `mqtts` speaks TLS (port 8883 by default), trusting the system's authorities or those in `ca`.
public enum MQTTSettings {
    /// OwnTracks' topics: the apps publish locations to `owntracks/USER/DEVICE`, and events, cards,
    /// commands, regions (one, or all of them exported) and status to its `/event`, `/info`, `/cmd`,
    /// `/waypoint`, `/waypoints` and `/status` subtopics (the booklet's JSON page).
    public static let defaultTopics = [
        "owntracks/+/+", "owntracks/+/+/event", "owntracks/+/+/info", "owntracks/+/+/cmd", "owntracks/+/+/waypoint",
        "owntracks/+/+/waypoints", "owntracks/+/+/status",
    ]

    /// The subscription `url` names. With `share` and no `client_id`, the client id is
    /// `whereabouts-server-HOSTNAME`, from `hostName` (the machine's, read only then, by default):
    /// one per machine or container, stable across restarts (two instances on one host each need a
    /// `client_id`).
    /// - Throws: ``ServerError/usage(_:)`` naming what is wrong with the URL and how to write it.
    public static func parse(_ url: String, hostName: String? = nil) throws -> MQTTSubscription {
        let shape = "write mqtt[s]://[user[:password]@]host[:port][?client_id=ID&topics=owntracks/+/+,…&share=GROUP&ca=FILE]"
        guard let components = URLComponents(string: url), ["mqtt", "mqtts"].contains(components.scheme), let host = components.host,
            !host.isEmpty
        else {
            throw ServerError.usage("--mqtt \(url.prefix(80)) is not an mqtt:// or mqtts:// URL with a host; \(shape)")
        }
        let secure = components.scheme == "mqtts"
        let items = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        if let unknown = items.keys.sorted().first(where: { !["client_id", "topics", "share", "ca"].contains($0) }) {
            throw ServerError.usage("--mqtt: the parameter \(unknown) is not known; \(shape)")
        }
        if let ca = items["ca"] {
            guard secure else { throw ServerError.usage("--mqtt: ca= is for mqtts:// URLs (TLS); \(shape)") }
            guard FileManager.default.isReadableFile(atPath: ca) else {
                throw ServerError.usage("--mqtt: ca=\(ca.prefix(200)) is not a readable file; give the PEM file of the broker's authority")
            }
        }
        let topics = items["topics"].map { $0.split(separator: ",").map(String.init) } ?? defaultTopics
        guard !topics.isEmpty else { throw ServerError.usage("--mqtt: topics= names no topic; \(shape)") }
        let share = items["share"]
        if let share, share.isEmpty || share.contains(where: { "/+#".contains($0) }) {
            throw ServerError.usage(
                "--mqtt: share=\(share.prefix(40)) is not a group name (one or more characters, none of / + #); \(shape)")
        }
        // Instances sharing a subscription each need a client id of their own: two with one id
        // would take the broker's session from each other at every connection.
        let clientID =
            items["client_id"]
            ?? (share == nil ? "whereabouts-server" : "whereabouts-server-\(hostName ?? ProcessInfo.processInfo.hostName)")
        guard !clientID.isEmpty else { throw ServerError.usage("--mqtt: client_id is empty; \(shape)") }
        return MQTTSubscription(
            host: host, port: components.port ?? (secure ? 8883 : 1883), clientID: clientID,
            username: components.user?.removingPercentEncoding,
            password: components.password?.removingPercentEncoding, topics: topics, shareGroup: share,
            tls: secure ? MQTTTLS(caFile: items["ca"]) : nil)
    }
}
