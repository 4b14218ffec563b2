import Foundation

/// The part of the store the uploader works on: pending records claimed under a lease, then marked
/// delivered, rejected or handed back.
public protocol DeliveryQueue: AnyObject, Sendable {
    /// Claims up to `limit` pending records whose lease is free or expired and leases them until
    /// `now + lease`, so a crash mid-upload hands them back when the lease runs out.
    func claim(limit: Int, order: DeliveryOrder, now: Date, lease: TimeInterval) throws -> [LocationRecord]
    /// The server acknowledged these records.
    func markDelivered(_ ids: [UUID]) throws
    /// The server refused these records for good.
    func markRejected(_ rejections: [UUID: Rejection], at date: Date) throws
    /// Ends the lease of records that were not delivered, so the next flush sends them again.
    func release(_ ids: [UUID]) throws
    /// Records not yet acknowledged, leased or not.
    func pendingCount() throws -> Int
    /// Keeps commands a server sent back, to be acted on by the engine; a command whose id is already
    /// kept (sent again before it was acknowledged) is not kept twice.
    func enqueueCommands(_ commands: [DeviceCommand], at date: Date) throws
    /// The server took the acknowledgement of these commands: they are forgotten.
    func confirmAcknowledged(_ ids: [String]) throws
}
