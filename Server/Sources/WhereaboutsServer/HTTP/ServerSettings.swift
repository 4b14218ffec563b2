import Foundation

/// Limits, timeouts and secrets of a running server. The defaults are safe for a server on the open
/// internet behind a TLS proxy.
public struct ServerSettings: Sendable {
    /// The largest request body, in bytes; a larger one is answered 413 before it is read.
    public var maxBodyBytes: Int
    /// The most locations (or events) per batch.
    public var maxBatch: Int
    /// Requests per second per device, on average (0 turns the limit off).
    public var rateLimit: Double
    /// Requests a device may send in a burst.
    public var rateBurst: Double
    /// The admin token, which reads every device and queues commands; `nil` disables admin access.
    public var adminToken: String?
    /// Whether `/metrics` answers without the admin token (it needs it by default).
    public var publicMetrics: Bool
    /// Seconds from a request's first byte until its header must be complete; then 408 and the
    /// connection is closed.
    public var headerTimeout: Double
    /// Seconds from a request's header until its body must be complete; then 408 and the connection
    /// is closed.
    public var bodyTimeout: Double
    /// Seconds a connection may stay open with no request under way before it is closed.
    public var idleTimeout: Double
    /// Connections served at once; one more is answered 503 and closed at once.
    public var maxConnections: Int
    /// Connections served at once to one client address, so one client cannot take them all; 0 for
    /// no such limit. Not applied with ``trustForwardedFor``, where every connection is the proxy's.
    public var maxConnectionsPerAddress: Int
    /// Failed logins (401 answers to requests carrying a token) a client address may have per minute,
    /// in a burst of as many; after that its requests carrying a token get 429 with `Retry-After`
    /// until it has earned another try (0 turns throttling off).
    public var loginFailuresPerMinute: Int
    /// Whether the client address for login throttling is the last `X-Forwarded-For` entry, as a
    /// reverse proxy in front of the server writes it. Only set this behind such a proxy: otherwise
    /// a client chooses its own address.
    public var trustForwardedFor: Bool
    /// Seconds a command sent with one answer is leased to it: no other answer, on any instance,
    /// carries it meanwhile; without the device's acknowledgement it goes out again after that.
    public var commandLease: Double
    /// The map tiles of the day page, `{z}/{x}/{y}` (and optionally `{s}`) in an http(s) URL; empty
    /// for the SVG drawing alone.
    public var tileURL: String
    /// The attribution the tile provider asks for, shown on the map.
    public var tileAttribution: String
    /// The folder holding Leaflet's `leaflet.js`, `leaflet.css` and `images/` (Debian's `libjs-leaflet`).
    public var leafletDirectory: String
    /// Seconds a browser's login lasts.
    public var loginLifetime: Double
    /// The most locations one `/api/0/locations` answer holds: a range holding more is refused
    /// (400, naming `from`, `to` and `limit`), since the answer is built whole in memory.
    public var maxRecorderLocations: Int

    /// OpenStreetMap's standard tiles.
    public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    /// Creates settings.
    public init(
        maxBodyBytes: Int = 1 << 20, maxBatch: Int = 1000, rateLimit: Double = 50, rateBurst: Double = 100, adminToken: String? = nil,
        publicMetrics: Bool = false, headerTimeout: Double = 10, bodyTimeout: Double = 60, idleTimeout: Double = 60,
        maxConnections: Int = 1000, maxConnectionsPerAddress: Int = 100, loginFailuresPerMinute: Int = 10, trustForwardedFor: Bool = false,
        commandLease: Double = 30, tileURL: String = openStreetMapTiles, tileAttribution: String = "© OpenStreetMap contributors",
        leafletDirectory: String = "/usr/share/javascript/leaflet", loginLifetime: Double = 12 * 3600,
        maxRecorderLocations: Int = 100_000
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxBatch = maxBatch
        self.rateLimit = rateLimit
        self.rateBurst = rateBurst
        self.adminToken = adminToken
        self.publicMetrics = publicMetrics
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.loginFailuresPerMinute = loginFailuresPerMinute
        self.trustForwardedFor = trustForwardedFor
        self.commandLease = commandLease
        self.tileURL = tileURL
        self.tileAttribution = tileAttribution
        self.leafletDirectory = leafletDirectory
        self.loginLifetime = loginLifetime
        self.maxRecorderLocations = maxRecorderLocations
    }

    /// Checks every limit is usable.
    /// - Throws: ``ServerError/usage(_:)`` naming the setting, its value and the allowed range.
    public func validated() throws -> ServerSettings {
        for (name, value) in [
            ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout),
            ("--command-lease", commandLease),
        ] {
            guard value.isFinite, value > 0, value <= 86_400 else {
                throw ServerError.usage("\(name) \(value) is not a number of seconds from 0 (exclusive) to 86400")
            }
        }
        guard maxConnections >= 1 else { throw ServerError.usage("--max-connections \(maxConnections) must be at least 1") }
        guard maxConnectionsPerAddress >= 0 else {
            throw ServerError.usage("--max-connections-per-address \(maxConnectionsPerAddress) must be 0 (no such limit) or more")
        }
        guard maxBodyBytes >= 1 else { throw ServerError.usage("--max-body-bytes \(maxBodyBytes) must be at least 1") }
        guard maxRecorderLocations >= 1 else {
            throw ServerError.usage("--max-recorder-locations \(maxRecorderLocations) must be at least 1")
        }
        guard loginFailuresPerMinute >= 0 else {
            throw ServerError.usage("--login-failures-per-minute \(loginFailuresPerMinute) must be 0 (no throttling) or more")
        }
        if !tileURL.isEmpty {
            let missing = ["{z}", "{x}", "{y}"].filter { !tileURL.contains($0) }
            guard tileURL.hasPrefix("https://") || tileURL.hasPrefix("http://"), missing.isEmpty,
                URL(string: tileURL.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")) != nil
            else {
                throw ServerError.usage(
                    "--tile-url \(tileURL.prefix(200)) is not a tile URL\(missing.isEmpty ? "" : " (it lacks \(missing.joined(separator: ", ")))"); give an http(s) URL with {z}, {x} and {y}, such as \(Self.openStreetMapTiles), or an empty one for no map"
                )
            }
        }
        return self
    }
}
