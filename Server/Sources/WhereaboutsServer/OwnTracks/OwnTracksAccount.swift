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

/// Thrown by a `/pub` write when the device's stored account is no longer the one the request was
/// authenticated with (its token was rotated, the device removed, or its profile changed): nothing
/// was written, and the request must be authenticated again from storage.
public struct OwnTracksAccountChanged: Error, CustomStringConvertible {
    /// The device whose account changed.
    public let device: String

    public var description: String {
        "device \(device)'s token or OwnTracks profile changed while its request was handled; nothing was written"
    }
}
