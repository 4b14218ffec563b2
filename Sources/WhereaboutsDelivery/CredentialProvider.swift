import Foundation
import WhereaboutsCore

/// Whether an upload can go out, and with what.
public enum CredentialState: Sendable, Equatable {
    /// The server needs no credential.
    case notNeeded
    /// The user has not signed in: records wait on disk until they do. Nothing is dropped.
    case signedOut
    /// Present this.
    case present(Credential)

    var credential: Credential? {
        if case .present(let credential) = self { credential } else { nil }
    }
}

/// Supplies the credential uploads present, and a fresh one after a 401.
public protocol CredentialProvider: Sendable {
    /// The current credential state.
    func current() async throws -> CredentialState
    /// A renewed credential after the server refused the current one (`.signedOut` when none can be had).
    func refreshed() async throws -> CredentialState
}

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
