import Foundation

/// What an OwnTracks `location` carried beyond a ``WhereaboutsCore/LocationRecord``: the message
/// itself, every field kept, known or not, and the fields worth querying typed.
public struct OwnTracksFields: Sendable, Equatable {
    /// `tid`: the tracker id shown on maps.
    public var tid: String?
    /// `topic`: the topic the app would publish to (`owntracks/USER/DEVICE`).
    public var topic: String?
    /// `batt`: battery level, percent.
    public var battery: Int?
    /// `bs`: battery status (0 unknown, 1 unplugged, 2 charging, 3 full).
    public var batteryStatus: Int?
    /// `conn`: connectivity (`w` Wi-Fi, `o` offline, `m` mobile).
    public var connectivity: String?
    /// `SSID`: the Wi-Fi network's name.
    public var ssid: String?
    /// `BSSID`: the Wi-Fi access point.
    public var bssid: String?
    /// The message as the app sent it, the JSON text it came as (decrypted, when it came encrypted).
    public var message: String

    /// Creates fields.
    public init(
        tid: String? = nil, topic: String? = nil, battery: Int? = nil, batteryStatus: Int? = nil, connectivity: String? = nil,
        ssid: String? = nil, bssid: String? = nil, message: String
    ) {
        self.tid = tid
        self.topic = topic
        self.battery = battery
        self.batteryStatus = batteryStatus
        self.connectivity = connectivity
        self.ssid = ssid
        self.bssid = bssid
        self.message = message
    }
}
