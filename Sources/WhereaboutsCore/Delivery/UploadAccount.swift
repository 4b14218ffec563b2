import Foundation

/// Where uploads go and the credential they present, as the app set them: a ``Session`` value, kept
/// in memory and in the store, read by the uploader before each flush.
public struct UploadAccount: Sendable, Equatable {
    /// Where uploads go; `nil` until the app configures uploads.
    public var settings: UploadSettings?
    /// The signed-in user's tokens; `nil` when signed out.
    public var tokens: AuthTokens?

    /// Creates an account.
    public init(settings: UploadSettings? = nil, tokens: AuthTokens? = nil) {
        self.settings = settings
        self.tokens = tokens
    }

    /// The endpoint the settings describe, for the signed-in user; `nil` until uploads are configured.
    public var endpoint: (any UploadEndpoint)? { settings?.endpoint(userID: tokens?.userID) }
}
