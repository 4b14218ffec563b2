import Foundation

/// A stored region event with the stable id that makes its upload idempotent.
public struct EventRecord: Sendable, Hashable, Identifiable {
    /// Stable identity; a resend carries the same id.
    public let id: UUID
    /// The event.
    public let event: RegionEvent

    /// Creates a record with the given id.
    public init(id: UUID, event: RegionEvent) {
        self.id = id
        self.event = event
    }

    /// Creates a record with a new time-ordered id (``RecordID``) for the event's own timestamp.
    public init(event: RegionEvent) {
        self.init(id: RecordID.make(at: event.timestamp), event: event)
    }
}
