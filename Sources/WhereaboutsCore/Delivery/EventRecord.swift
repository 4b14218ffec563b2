import Foundation

/// A stored region event with the stable id that makes its upload idempotent.
public struct EventRecord: Sendable, Hashable, Identifiable {
    /// Stable identity; a resend carries the same id.
    public let id: UUID
    /// The event.
    public let event: RegionEvent

    /// Creates a record.
    public init(id: UUID = UUID(), event: RegionEvent) {
        self.id = id
        self.event = event
    }
}
