import Foundation

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

extension SettingKey where Value == Date {
    /// When active tracking ends, while it runs; a relaunched app goes on with it until then.
    public static var activeTrackingEnd: SettingKey<Date> { .init("activeTrackingEnd") }
}

extension SettingKey where Value == UUID {
    /// The record whose stay ended (``SessionWrite/stayEnded(_:)``).
    public static var stayEnded: SettingKey<UUID> { .init("stayEnded") }
}

extension SettingKey where Value == TrackerConfiguration {
    /// The Tracker's configuration, its mode included; it survives relaunches.
    public static var configuration: SettingKey<TrackerConfiguration> { .init("configuration") }
}

extension SettingKey where Value == AuthTokens {
    /// The upload credentials.
    public static var authTokens: SettingKey<AuthTokens> { .init("authTokens") }
}
