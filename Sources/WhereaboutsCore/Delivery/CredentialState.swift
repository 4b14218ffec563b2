import Foundation

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
