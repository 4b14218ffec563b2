import Foundation

/// What the app knows about one location permission, in the story app's words: whether it is granted,
/// when that last changed, when the OS was last read and when the user was last asked.
///
/// Encoded (for the store and for JavaScript) with its times as integer JavaScript milliseconds since
/// 1970 (see ``JavaScriptTime``), `requestedAt` written as `null` when the user was never asked, and
/// `canAskAgain` written only when it is set (foreground records).
public struct PermissionRecord: Sendable, Hashable, Codable {
    /// Whether the permission is granted now.
    public var isGranted: Bool
    /// When ``isGranted`` last changed (or the record was created).
    public var updatedAt: Date
    /// When the permission was last read from the OS.
    public var checkedAt: Date
    /// When the OS dialog for this permission was last asked for, or `nil` if it never was (a
    /// permission granted on a previous install, or found in Settings).
    public var requestedAt: Date?
    /// Foreground only (`nil` on the background record): `false` when the permission is not granted and
    /// the OS will not show its dialog again, so only the Settings app can grant it; `true` otherwise.
    public var canAskAgain: Bool?

    /// Creates a record.
    public init(isGranted: Bool, updatedAt: Date, checkedAt: Date, requestedAt: Date? = nil, canAskAgain: Bool? = nil) {
        self.isGranted = isGranted
        self.updatedAt = updatedAt
        self.checkedAt = checkedAt
        self.requestedAt = requestedAt
        self.canAskAgain = canAskAgain
    }

    enum CodingKeys: String, CodingKey {
        case isGranted, updatedAt, checkedAt, requestedAt, canAskAgain
    }

    /// Decodes a record whose times are JavaScript milliseconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isGranted = try c.decode(Bool.self, forKey: .isGranted)
        updatedAt = JavaScriptTime.date(try c.decode(Int64.self, forKey: .updatedAt))
        checkedAt = JavaScriptTime.date(try c.decode(Int64.self, forKey: .checkedAt))
        requestedAt = try c.decodeIfPresent(Int64.self, forKey: .requestedAt).map(JavaScriptTime.date)
        canAskAgain = try c.decodeIfPresent(Bool.self, forKey: .canAskAgain)
    }

    /// Encodes the record with its times as JavaScript milliseconds and an explicit `null` for a
    /// missing `requestedAt`.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, canAskAgainKey: canAskAgain == nil ? .omitted : .written)
    }

    /// How ``canAskAgain`` appears in the JSON.
    enum CanAskAgainKey {
        /// The key is absent (the background record's shape).
        case omitted
        /// The key is present, `null` when the value is missing (the foreground record's shape).
        case written
    }

    func encode(to encoder: any Encoder, canAskAgainKey: CanAskAgainKey) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isGranted, forKey: .isGranted)
        try c.encode(JavaScriptTime.milliseconds(updatedAt), forKey: .updatedAt)
        try c.encode(JavaScriptTime.milliseconds(checkedAt), forKey: .checkedAt)
        if let requestedAt {
            try c.encode(JavaScriptTime.milliseconds(requestedAt), forKey: .requestedAt)
        } else {
            try c.encodeNil(forKey: .requestedAt)
        }
        switch (canAskAgainKey, canAskAgain) {
        case (.omitted, _): break
        case (.written, let value?): try c.encode(value, forKey: .canAskAgain)
        case (.written, nil): try c.encodeNil(forKey: .canAskAgain)
        }
    }
}

extension SettingKey where Value == Permissions {
    /// The permission records, persisted so the back-off and `requestedAt` survive relaunches.
    public static var permissions: SettingKey<Permissions> { .init("permissions") }
}
