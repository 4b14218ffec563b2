import Foundation

/// Limits and secrets of a running server.
public struct ServerSettings: Sendable {
    /// The largest request body, in bytes.
    public var maxBodyBytes: Int
    /// The most locations (or events) per batch.
    public var maxBatch: Int
    /// Requests per second per device, on average (0 turns the limit off).
    public var rateLimit: Double
    /// Requests a device may send in a burst.
    public var rateBurst: Double
    /// The admin token, which reads every device and queues commands; `nil` disables admin access.
    public var adminToken: String?

    /// Creates settings.
    public init(maxBodyBytes: Int = 1 << 20, maxBatch: Int = 1000, rateLimit: Double = 50, rateBurst: Double = 100, adminToken: String? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.maxBatch = maxBatch
        self.rateLimit = rateLimit
        self.rateBurst = rateBurst
        self.adminToken = adminToken
    }
}
