import Foundation

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
