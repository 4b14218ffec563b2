import Foundation

/// What an OwnTracks `location` carried beyond a ``WhereaboutsCore/LocationRecord``: the message
/// itself, every field kept, known or not, and the fields worth querying typed.
///
/// Its text holds no U+0000: JSON may send one (`"tid":"a\u0000"`), but PostgreSQL's `text` and
/// `jsonb` cannot hold it, so each is replaced with U+FFFD (``storable(_:)``), on SQLite as well, and
/// the location is kept. The message itself keeps the escape as the six characters it came as.
public struct OwnTracksFields: Sendable, Equatable {
    /// `tid`: the tracker id shown on maps.
    public var tid: String? { didSet { tid = Self.storable(tid) } }
    /// `topic`: the topic the app would publish to (`owntracks/USER/DEVICE`).
    public var topic: String? { didSet { topic = Self.storable(topic) } }
    /// `batt`: battery level, percent.
    public var battery: Int?
    /// `bs`: battery status (0 unknown, 1 unplugged, 2 charging, 3 full).
    public var batteryStatus: Int?
    /// `conn`: connectivity (`w` Wi-Fi, `o` offline, `m` mobile).
    public var connectivity: String? { didSet { connectivity = Self.storable(connectivity) } }
    /// `SSID`: the Wi-Fi network's name.
    public var ssid: String? { didSet { ssid = Self.storable(ssid) } }
    /// `BSSID`: the Wi-Fi access point.
    public var bssid: String? { didSet { bssid = Self.storable(bssid) } }
    /// The message as the app sent it, the JSON text it came as (decrypted, when it came encrypted).
    public var message: String { didSet { message = Self.storable(message) } }

    /// Creates fields.
    public init(
        tid: String? = nil, topic: String? = nil, battery: Int? = nil, batteryStatus: Int? = nil, connectivity: String? = nil,
        ssid: String? = nil, bssid: String? = nil, message: String
    ) {
        self.tid = Self.storable(tid)
        self.topic = Self.storable(topic)
        self.battery = battery
        self.batteryStatus = batteryStatus
        self.connectivity = Self.storable(connectivity)
        self.ssid = Self.storable(ssid)
        self.bssid = Self.storable(bssid)
        self.message = Self.storable(message)
    }

    /// `text` with each U+0000 replaced by U+FFFD, which both databases store. A JSON text never holds
    /// a bare U+0000 (it is escaped inside strings), so a message as it came is unchanged.
    public static func storable(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{0}") else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\u{0}" ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// `text` with each U+0000 replaced by U+FFFD; `nil` stays `nil`.
    public static func storable(_ text: String?) -> String? { text.map { storable($0) } }
}
