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
