import Foundation

/// The order in which pending records leave the device.
public enum DeliveryOrder: String, Sendable, Codable, CaseIterable {
    /// Oldest first: the server's history fills in order.
    case oldestFirst
    /// Newest first: after a long offline period the live position is fresh at once.
    case latestFirst
}

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
    /// The ids of the commands carried out and not yet acknowledged to the server: the next upload
    /// sends them.
    func commandAcknowledgements() throws -> [String]
    /// The server took the acknowledgement of these commands: they are forgotten.
    func confirmAcknowledged(_ ids: [String]) throws
}

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

/// Where small values live: the upload credentials, the engine's configuration.
public protocol SettingStore: AnyObject, Sendable {
    /// A stored setting, or `nil`.
    func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value?
    /// Stores or (with `nil`) removes a setting.
    func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws
}
