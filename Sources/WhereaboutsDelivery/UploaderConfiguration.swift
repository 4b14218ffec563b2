import Foundation
import WhereaboutsCore

/// How the ``Uploader`` batches, leases, times out and backs off.
public struct UploaderConfiguration: Sendable {
    /// Records per request; capped by the endpoint's own limit.
    public var batchSize: Int
    /// Oldest first, or latest first to keep a live position fresh after a long offline period.
    public var order: DeliveryOrder
    /// How long a claimed record stays leased to one upload; a crash hands it back after this.
    public var lease: TimeInterval
    /// Seconds to wait for an answer.
    public var requestTimeout: TimeInterval
    /// Back-off after failures.
    public var backoff: Backoff

    /// Creates a configuration.
    public init(
        batchSize: Int = 500, order: DeliveryOrder = .oldestFirst, lease: TimeInterval = 120, requestTimeout: TimeInterval = 30,
        backoff: Backoff = Backoff()
    ) {
        self.batchSize = max(1, batchSize)
        self.order = order
        self.lease = lease
        self.requestTimeout = requestTimeout
        self.backoff = backoff
    }
}

/// Why a flush started.
public enum UploadTrigger: String, Sendable, CaseIterable {
    /// Enough records are pending (the Tracker's count threshold, ``TrackerConfiguration/uploadThreshold``).
    case threshold
    /// A region event happened.
    case regionEvent
    /// The device stopped or started moving.
    case motionChange
    /// The network came back; skips the back-off (not a server's `Retry-After`).
    case connectivity
    /// The app came to the foreground; skips the back-off (not a server's `Retry-After`).
    case foreground
    /// Tracking stopped.
    case stopped
    /// A scheduled retry after a failure.
    case retry
    /// The app asked.
    case manual

    /// The trigger for a Tracker flush effect.
    public init(_ reason: FlushReason) {
        switch reason {
        case .threshold: self = .threshold
        case .regionEvent: self = .regionEvent
        case .motionChange: self = .motionChange
        case .foreground: self = .foreground
        case .stopped: self = .stopped
        }
    }

    var skipsBackoff: Bool { self == .connectivity || self == .foreground || self == .manual }
}

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
    /// Why the flush stopped before the queue was empty, if it did.
    public var stoppedBy: FlushStop?

    /// Creates an empty report.
    public init(trigger: UploadTrigger) { self.trigger = trigger }

    /// Adds what a later flush did; its stop, if any, is the one that counts.
    mutating func add(_ other: FlushReport) {
        delivered += other.delivered
        eventsDelivered += other.eventsDelivered
        rejected += other.rejected
        requests += other.requests
        deliveredIDs += other.deliveredIDs
        rejectedIDs += other.rejectedIDs
        commands += other.commands
        stoppedBy = other.stoppedBy
    }

    /// Counts what an answer settled for the items of one lane (`record` or `event`).
    mutating func settle(_ outcome: DeliveryOutcome, lane: String, listingIDs: Bool) {
        if lane == "record" { delivered += outcome.delivered.count } else { eventsDelivered += outcome.delivered.count }
        rejected += outcome.rejected.count
        commands += outcome.commands
        guard listingIDs else { return }
        deliveredIDs += outcome.delivered
        rejectedIDs += outcome.rejected.keys.sorted { $0.uuidString < $1.uuidString }
    }
}

/// Why a flush ended with records still pending.
public enum FlushStop: Sendable, Equatable {
    /// The user has not signed in; records wait on disk.
    case signedOut
    /// A failure; the next attempt is not before `retryAt`.
    case failed(String, retryAt: Date)
    /// The back-off from an earlier failure has not run out.
    case backingOff(until: Date)
    /// The store could not be read or written.
    case storeError(String)
    /// The endpoint's URL is wrong (it answered 404 or 405): the records stay pending and uploads
    /// pause until a manual flush or an uploader with the right URL; the text names the URL and the fix.
    case misconfigured(String)
}
