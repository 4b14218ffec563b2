import Foundation
import WhereaboutsCore

/// CoreLocation's authorization as the core maps it, kept for ``CoreLocationService/authorization()``
/// (which the engine calls from its actor while CoreLocation reports on the main thread), together with
/// the two facts CoreLocation does not expose:
///
/// - whether this install has called `requestAlwaysAuthorization()`: iOS shows that dialog once, so
///   afterwards When In Use cannot be raised to Always from the app. Kept in `UserDefaults`.
/// - whether Always was asked for while the status was not determined. Then an Always status is
///   provisional: the user chose Allow While Using and iOS asks again the first time the app uses
///   location in the background. Kept for the life of the process, since that second question comes
///   during the first background use.
final class AuthorizationTracker: @unchecked Sendable {
    /// The `UserDefaults` key of the "Always was requested" flag.
    static let alwaysRequestedKey = "whereabouts.alwaysAuthorizationRequested"

    private let defaults: UserDefaults
    private let lock = NSLock()
    private var latest = PlatformAuthorization(status: .notDetermined)
    private var alwaysRequestedWhileNotDetermined = false

    init(defaults: UserDefaults) { self.defaults = defaults }

    /// The authorization read last.
    var current: PlatformAuthorization { lock.withLock { latest } }

    /// Notes that `requestAlwaysAuthorization()` is being called.
    func noteAlwaysRequested(whileNotDetermined: Bool) {
        defaults.set(true, forKey: Self.alwaysRequestedKey)
        lock.withLock {
            if whileNotDetermined { alwaysRequestedWhileNotDetermined = true }
        }
    }

    /// Reads `manager`'s authorization and maps it; keeps the previous value when the core refuses
    /// CoreLocation's raw values.
    @MainActor
    func refresh(from manager: any LocationManaging) -> Result<PlatformAuthorization, ValidationError> {
        let status = manager.authorizationStatusCode
        let accuracy = manager.accuracyAuthorizationCode
        let alwaysRequested = defaults.bool(forKey: Self.alwaysRequestedKey)
        return lock.withLock {
            do throws(ValidationError) {
                latest = try PlatformAuthorization(
                    coreLocationStatus: status, accuracyAuthorization: accuracy,
                    provisional: alwaysRequestedWhileNotDetermined && status == CoreLocationConstants.authorizationAlways,
                    alwaysPromptUsed: alwaysRequested)
                return .success(latest)
            } catch {
                return .failure(error)
            }
        }
    }
}
