import Foundation

/// The region events waiting for a server, claimed and settled like records.
public protocol EventQueue: AnyObject, Sendable {
    /// Claims up to `limit` pending events, oldest first, leasing them until `now + lease`.
    func claimEvents(limit: Int, now: Date, lease: TimeInterval) throws -> [EventRecord]
    /// The server acknowledged these events.
    func markEventsDelivered(_ ids: [UUID]) throws
    /// The server refused these events for good.
    func markEventsRejected(_ rejections: [UUID: Rejection], at date: Date) throws
    /// Ends the lease of events that were not delivered.
    func releaseEvents(_ ids: [UUID]) throws
}
