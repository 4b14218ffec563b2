import Foundation

/// A region event as a server receives and keeps it.
public struct ReceivedEvent: Sendable, Equatable, Codable {
    /// Unique per device; a resend is a duplicate.
    public let id: UUID
    /// The region.
    public let regionID: String
    /// `enter`, `exit` or `dwell`.
    public let kind: RegionEventKind
    /// When it happened.
    public let timestamp: Date
    /// Where, if known.
    public let latitude: Double?
    /// Where, if known.
    public let longitude: Double?
    /// Whether this is the state found when monitoring started rather than a transition.
    public let initial: Bool

    /// Creates an event.
    public init(
        id: UUID, regionID: String, kind: RegionEventKind, timestamp: Date, latitude: Double?, longitude: Double?, initial: Bool = false
    ) {
        self.id = id
        self.regionID = regionID
        self.kind = kind
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.initial = initial
    }
}
