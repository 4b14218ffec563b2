import Foundation

/// The two location permissions the story app tracks. Each record is `nil` until the permission first
/// matters (see ``PermissionCoordinator`` for exactly when a record appears).
public struct Permissions: Sendable, Hashable, Codable {
    /// Positions while the app is in use, or `nil` if never requested nor answered.
    public var foreground: PermissionRecord?
    /// Positions while the app is in the background, or `nil` if never requested nor granted.
    public var background: PermissionRecord?

    /// Creates the records; both `nil` by default (first launch).
    public init(foreground: PermissionRecord? = nil, background: PermissionRecord? = nil) {
        self.foreground = foreground
        self.background = background
    }

    enum CodingKeys: String, CodingKey {
        case foreground, background
    }

    /// Decodes both records, either of which may be `null` or absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        foreground = try c.decodeIfPresent(PermissionRecord.self, forKey: .foreground)
        background = try c.decodeIfPresent(PermissionRecord.self, forKey: .background)
    }

    /// Encodes both records, writing `null` for a missing one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(foreground, forKey: .foreground)
        try c.encode(background, forKey: .background)
    }
}
