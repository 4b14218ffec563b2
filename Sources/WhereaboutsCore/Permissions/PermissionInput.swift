import Foundation

/// What can happen to the location permissions. Each input is handled with the time it happened at.
public enum PermissionInput: Sendable, Equatable {
    /// The app came to the foreground (or the app asked for a check, bridge `checkPermissions`) with
    /// the authorization the OS reports now: both records are refreshed, and background is asked for
    /// when foreground is granted, background is not and the back-off allows it.
    case becameActive(PlatformAuthorization)
    /// The OS reported an authorization: the answer to a dialog, a change made in Settings, or the
    /// report a location service sends when it starts. The records are refreshed; nothing is asked.
    case authorizationChanged(PlatformAuthorization)
    /// The user did something that needs a position (created a story, searched nearby): foreground is
    /// asked for if it is not granted, or Settings opened when the OS will not ask again.
    case locationAction
    /// The app asked for a permission (bridge `requestPermission {kind}`). Foreground behaves as
    /// ``locationAction``; background is asked for only once foreground is granted and the back-off
    /// allows it, and Settings opened when the OS will not ask again.
    case request(PermissionKind)
}
