import Foundation

/// How one of our devices appears to OwnTracks. OwnTracks names a device twice, `owntracks/USER/DEVICE`;
/// we have one device id. The mapping is explicit: the user is ``user`` when set (`device set-user`),
/// else the device id; the device name is ``name`` when set, else the device id.
public struct OwnTracksProfile: Sendable, Equatable, Codable {
    /// Our device id.
    public let device: String
    /// The OwnTracks user, when set.
    public var user: String?
    /// The OwnTracks device name, when set.
    public var name: String?
    /// The friends group: devices sharing one see each other's last location and card in `/pub` answers.
    public var group: String?
    /// The payload encryption passphrase the app is configured with, when it encrypts.
    public var key: String?

    /// Creates a profile; everything unset by default.
    public init(device: String, user: String? = nil, name: String? = nil, group: String? = nil, key: String? = nil) {
        self.device = device
        self.user = user
        self.name = name
        self.group = group
        self.key = key
    }

    /// The OwnTracks user: ``user``, else the device id.
    public var ownTracksUser: String { user ?? device }
    /// The OwnTracks device name: ``name``, else the device id.
    public var ownTracksDevice: String { name ?? device }
    /// `owntracks/USER/DEVICE`.
    public var topic: String { "owntracks/\(ownTracksUser)/\(ownTracksDevice)" }
    /// Why `value` cannot be a user, device name or group (`what`), or `nil` when it can: it must be
    /// non-empty and free of `/`, `+`, `#` and control characters, since users and names make up topics
    /// (`owntracks/USER/DEVICE`) and the `/api/0` paths, where these characters split or match levels.
    public static func problem(with value: String, as what: String) -> String? {
        if value.isEmpty { return "the \(what) is empty" }
        guard
            let bad = value.unicodeScalars.first(where: { "/+#".unicodeScalars.contains($0) || $0.properties.generalCategory == .control })
        else { return nil }
        return "the \(what) \"\(value)\" contains \(bad.escaped(asASCII: true)), which OwnTracks topics cannot hold"
    }

    /// The two-character tracker id OwnTracks shows when a message carries none: the device name's last two characters.
    public var defaultTrackerID: String { String(ownTracksDevice.suffix(2)) }
}
