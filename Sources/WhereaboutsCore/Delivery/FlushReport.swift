import Foundation

/// What one flush did.
public struct FlushReport: Sendable, Equatable {
    /// Why it ran.
    public var trigger: UploadTrigger
    /// Records acknowledged by the server.
    public var delivered = 0
    /// Region events acknowledged by the server.
    public var eventsDelivered = 0
    /// Records and events refused for good.
    public var rejected = 0
    /// Requests sent.
    public var requests = 0
    /// The ids of the records acknowledged by the server.
    public var deliveredIDs: [UUID] = []
    /// The ids of the records refused for good.
    public var rejectedIDs: [UUID] = []
    /// Commands received.
    public var commands: [DeviceCommand] = []
    /// The ids of carried-out commands whose acknowledgement the server took (or that an endpoint
    /// without acknowledgements forgot): they are settled.
    public var acknowledged: [String] = []
    /// Why the flush stopped before the queue was empty, if it did.
    public var stoppedBy: FlushStop?

    /// Creates an empty report.
    public init(trigger: UploadTrigger) { self.trigger = trigger }

    /// Adds what a later flush did; its stop, if any, is the one that counts, except that a failure
    /// stays the reason when the later flush only ran out of time waiting it out.
    public mutating func add(_ other: FlushReport) {
        delivered += other.delivered
        eventsDelivered += other.eventsDelivered
        rejected += other.rejected
        requests += other.requests
        deliveredIDs += other.deliveredIDs
        rejectedIDs += other.rejectedIDs
        commands += other.commands
        acknowledged += other.acknowledged
        if case .failed = stoppedBy, other.stoppedBy == .outOfTime { return }
        stoppedBy = other.stoppedBy
    }

    /// Counts what an answer settled for the items of one kind; the ids listed are the records'.
    mutating func settle(_ outcome: DeliveryOutcome, kind: DeliveryItemKind) {
        if kind == .record { delivered += outcome.delivered.count } else { eventsDelivered += outcome.delivered.count }
        rejected += outcome.rejected.count
        commands += outcome.commands
        guard kind == .record else { return }
        deliveredIDs += outcome.delivered
        rejectedIDs += outcome.rejected.keys.sorted { $0.uuidString < $1.uuidString }
    }
}
