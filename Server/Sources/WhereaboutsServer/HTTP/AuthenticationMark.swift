import NIOConcurrencyHelpers

/// Whether the request being handled proved its credential valid, for ``LoginThrottleMiddleware``:
/// set where a token is found to be the admin's or the device's, read by the throttle once the
/// request is answered. A credential that proved itself is never throttled, whatever the route then
/// answers.
final class AuthenticationMark: Sendable {
    /// The mark of the request being handled, while the throttle watches it.
    @TaskLocal static var current: AuthenticationMark?

    private let proved = NIOLockedValueBox(false)

    /// Notes that the current request's credential is valid.
    static func credentialProved() { current?.proved.withLockedValue { $0 = true } }

    /// Whether the request's credential proved valid.
    var credentialWasProved: Bool { proved.withLockedValue { $0 } }
}
