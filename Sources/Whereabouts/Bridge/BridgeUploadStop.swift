import Foundation

/// What stopped a flush before the queue was empty, as the bridge's `stoppedBy` names it (the
/// TypeScript `UploadStop`).
public enum BridgeUploadStop: String, Sendable, CaseIterable, Encodable {
    /// No credential: the app must call `setAuth`.
    case signedOut
    /// A request failed; a retry follows at `retryAt`.
    case failed
    /// An earlier failure's back-off runs until `retryAt`.
    case backingOff
    /// The store could not be read or written.
    case storeError
    /// The endpoint answered 404 or 405 (a wrong URL) or 403 (a credential that may not write there);
    /// uploads pause until the app configures another or flushes by hand.
    case misconfigured
    /// A drain (a background task's, or the one before the app stops) ran out of time with records
    /// still pending; the next flush goes on.
    case outOfTime
}
