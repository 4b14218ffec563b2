import Foundation

/// What `/pub` checks a request against: the device's token digest and its OwnTracks profile.
public struct OwnTracksAccount: Sendable, Equatable {
    /// The SHA-256 of the device's token.
    public let tokenHash: Data
    /// The device's OwnTracks profile (empty when never configured).
    public let profile: OwnTracksProfile

    /// Creates an account.
    public init(tokenHash: Data, profile: OwnTracksProfile) {
        self.tokenHash = tokenHash
        self.profile = profile
    }
}
