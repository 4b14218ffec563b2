import Foundation
import WhereaboutsCore

/// Supplies the credential uploads present, and a fresh one after a 401.
public protocol CredentialProvider: Sendable {
    /// The current credential state.
    func current() async throws -> CredentialState
    /// A renewed credential after the server refused the current one (`.signedOut` when none can be had).
    func refreshed() async throws -> CredentialState
}
