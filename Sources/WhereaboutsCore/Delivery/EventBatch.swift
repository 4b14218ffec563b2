import Foundation

/// The request body of the events API: `{"events": [...]}`.
public struct EventBatch: Sendable, Hashable, Codable {
    /// The events, oldest first.
    public var events: [WireEvent]

    /// Creates a batch.
    public init(events: [WireEvent]) { self.events = events }
}
