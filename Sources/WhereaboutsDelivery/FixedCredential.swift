import Foundation
import WhereaboutsCore

/// A credential that never changes: a device token, OwnTracks Basic auth, or none at all. A 401
/// cannot be fixed by refreshing it.
public struct FixedCredential: CredentialProvider {
    private let state: CredentialState

    /// Presents `credential` with every upload.
    public init(_ credential: Credential) { state = .present(credential) }

    /// Uploads carry no credential.
    public static let none = FixedCredential(state: .notNeeded)

    private init(state: CredentialState) { self.state = state }

    public func current() async throws -> CredentialState { state }
    public func refreshed() async throws -> CredentialState { .signedOut }
}
