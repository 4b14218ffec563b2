import Foundation

/// A browser's login, as storage keeps it: only the SHA-256 of the cookie's secret, who logged in,
/// and the SHA-256 of the token they logged in with, so that rotating or removing that token ends
/// the login on every server instance at once. Storage keeps logins in the table `session`, the
/// name earlier servers gave it.
public struct BrowserLogin: Sendable, Equatable {
    /// SHA-256 of the cookie's value.
    public let idHash: Data
    /// The device that logged in, or `nil` for the admin.
    public let device: String?
    /// SHA-256 of the token used to log in; the login holds only while it is still the current one.
    public let tokenHash: Data
    /// When the login was made.
    public let createdAt: Date
    /// When the login ends on its own.
    public let expiresAt: Date

    /// Creates a login record.
    public init(idHash: Data, device: String?, tokenHash: Data, createdAt: Date, expiresAt: Date) {
        self.idHash = idHash
        self.device = device
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
