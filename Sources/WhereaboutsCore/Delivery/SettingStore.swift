import Foundation

/// Where small values live: the upload credentials, the engine's configuration.
public protocol SettingStore: AnyObject, Sendable {
    /// A stored setting, or `nil`.
    func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value?
    /// Stores or (with `nil`) removes a setting.
    func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws
}
