import Foundation

/// Why a flush ended with records still pending.
public enum FlushStop: Sendable, Equatable {
    /// The user has not signed in; records wait on disk.
    case signedOut
    /// A failure; the next attempt is not before `retryAt`.
    case failed(String, retryAt: Date)
    /// The back-off from an earlier failure has not run out.
    case backingOff(until: Date)
    /// The store could not be read or written.
    case storeError(String)
    /// The request is wrong, not its records (the endpoint's URL answered 404 or 405, or the server
    /// refused the device id or, with 403, the credential's access): the records stay pending and
    /// uploads pause until a manual flush or an uploader with the right URL, device and credential;
    /// the text names the URL and the fix.
    case misconfigured(String)
    /// A drain's deadline passed with items still pending: nothing more was claimed or sent, and
    /// what was claimed and not sent went back to pending. The back-off is left as it was; the next
    /// flush goes on.
    case outOfTime

    /// Whether the records wait for the user, not for time: signed out, or the request is wrong.
    /// Retrying later changes nothing until the credential, URL or device id is fixed.
    public var strands: Bool {
        switch self {
        case .signedOut, .misconfigured: true
        case .failed, .backingOff, .storeError, .outOfTime: false
        }
    }
}
