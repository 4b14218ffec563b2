/// Thrown by a write that confirms the credential its request was authenticated with (the device's
/// token digest; for `/pub` its whole OwnTracks account) when the stored one differs: the token was
/// rotated, the device removed, or its OwnTracks profile changed. Nothing was written, and the
/// request must be authenticated again from storage.
public struct CredentialChanged: Error, CustomStringConvertible {
    /// The device whose credential changed.
    public let device: String

    public var description: String {
        "device \(device)'s token or OwnTracks profile changed while its request was handled; nothing was written"
    }
}
