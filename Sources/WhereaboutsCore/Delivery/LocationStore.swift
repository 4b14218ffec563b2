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
    /// Keeps commands a server sent back, to be acted on by the engine.
    func enqueueCommands(_ commands: [ServerCommand], at date: Date) throws
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

/// The single source of truth on the device: records, region events, regions with their last state,
/// settings and server commands.
public protocol LocationStore: DeliveryQueue, EventQueue {
    /// Appends new records (one transaction for all of them).
    func append(_ records: [LocationRecord]) throws
    /// Sets the dwell of the newest record; a delivered record becomes pending again so the server
    /// learns the longer stay (uploads are upserts by id).
    func extendDwell(_ dwell: TimeInterval) throws
    /// Appends a region event.
    func append(_ event: RegionEvent) throws
    /// Stores regions, replacing any with the same id.
    func save(_ regions: [Region]) throws
    /// Removes regions by id.
    func removeRegions(_ ids: [String]) throws
    /// Every stored region.
    func regions() throws -> [Region]
    /// Remembers whether the device is inside a region.
    func setRegionState(_ id: String, inside: Bool?, at date: Date) throws
    /// A stored setting, or `nil`.
    func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value?
    /// Stores or (with `nil`) removes a setting.
    func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws
    /// Takes the commands not yet acted on, oldest first, and removes them.
    func takeCommands() throws -> [ServerCommand]
}

/// A typed settings key.
public struct SettingKey<Value: Codable>: Sendable, Hashable {
    /// The stored name.
    public let name: String

    /// Creates a key.
    public init(_ name: String) { self.name = name }
}

extension SettingKey where Value == Bool {
    /// Whether tracking is on; it survives relaunches.
    public static var trackingEnabled: SettingKey<Bool> { .init("trackingEnabled") }
}

extension SettingKey where Value == TrackerConfiguration {
    /// The Tracker's configuration, its mode included; it survives relaunches.
    public static var configuration: SettingKey<TrackerConfiguration> { .init("configuration") }
}

extension SettingKey where Value == AuthTokens {
    /// The upload credentials.
    public static var authTokens: SettingKey<AuthTokens> { .init("authTokens") }
}

/// Upload credentials as the store keeps them: an ID (access) token with its expiry and the refresh
/// token that renews it.
public struct AuthTokens: Sendable, Hashable, Codable {
    /// The bearer token sent with uploads.
    public var idToken: String?
    /// When `idToken` stops working.
    public var expiresAt: Date?
    /// The long-lived token that obtains a new `idToken`.
    public var refreshToken: String?
    /// The signed-in user's id.
    public var userID: String?

    /// Creates tokens.
    public init(idToken: String?, expiresAt: Date?, refreshToken: String?, userID: String?) {
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.userID = userID
    }

    /// How long before its expiry an ID token is renewed rather than sent.
    public static let renewalMargin: TimeInterval = 60

    /// The ID token, when it stays valid for ``renewalMargin`` seconds after `now`; `nil` means renew it.
    public func usableIDToken(at now: Date) -> String? {
        guard let idToken, let expiresAt, expiresAt > now.addingTimeInterval(Self.renewalMargin) else { return nil }
        return idToken
    }

    /// The tokens after a refresh answered with a new ID token valid for `lifetime` seconds; a new
    /// refresh token or user id replaces the old one when given.
    public func renewed(idToken: String, lifetime: TimeInterval, refreshToken: String?, userID: String?, at now: Date) -> AuthTokens {
        AuthTokens(
            idToken: idToken, expiresAt: now.addingTimeInterval(lifetime), refreshToken: refreshToken ?? self.refreshToken,
            userID: userID ?? self.userID)
    }
}
