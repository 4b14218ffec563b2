import Foundation

/// A message an OwnTracks app sent that the server keeps as it came: `card`, `lwt` or `status`.
public struct DeviceMessage: Sendable, Equatable, Codable {
    /// The OwnTracks `_type`.
    public let type: String
    /// The message as the JSON text it came as.
    public let body: String
    /// When the server stored it.
    public let receivedAt: Date
}
