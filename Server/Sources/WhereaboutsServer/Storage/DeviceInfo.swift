import Foundation

/// A device as the server knows it.
public struct DeviceInfo: Sendable, Equatable, Codable {
    /// The device id used in paths.
    public let id: String
    /// When it was added.
    public let createdAt: Date
    /// Locations stored.
    public let locations: Int
    /// The newest location's timestamp, if any.
    public let lastSeen: Date?
}
