import Foundation
import WhereaboutsCore

/// What posts local notifications on region events (the iOS adapter's `RegionNotifier`), as the bridge
/// drives it from JavaScript's `configureNotifications`.
public protocol RegionNotificationControl: Sendable {
    /// Applies `settings`: asks for permission to notify when they turn notifications on (the OS shows
    /// its dialog the first time only), stops posting when they turn them off.
    /// - Returns: whether notifications are allowed and on.
    func apply(_ settings: RegionNotificationSettings) async -> Bool
}
