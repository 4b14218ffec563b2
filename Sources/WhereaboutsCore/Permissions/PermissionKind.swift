import Foundation

/// Which location permission an app holds or asks for.
public enum PermissionKind: String, Sendable, Codable, CaseIterable {
    /// Positions while the app is in use (iOS When In Use).
    case foreground
    /// Positions while the app is in the background (iOS Always).
    case background
}
