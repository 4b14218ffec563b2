import Foundation

/// What the coordinator asks its shell to do, in order.
public enum PermissionEffect: Sendable, Equatable {
    /// The records changed: persist them under ``SettingKey/permissions`` and republish the snapshot.
    /// Always the first effect when present.
    case permissionsChanged(Permissions)
    /// Show the OS's permission dialog for this kind (`requestWhenInUseAuthorization()` for
    /// foreground, `requestAlwaysAuthorization()` for background on iOS).
    case requestAuthorization(PermissionKind)
    /// Open the app's page in the Settings app: the OS will not show its dialog again.
    case openSettings
}
