import Foundation
import WhereaboutsCore

/// The part of `UNUserNotificationCenter` the notifier uses (`AppleNotifications.swift` adopts it).
public protocol NotificationCentering: Sendable {
    /// `requestAuthorization(options: [.alert, .sound])`: shows the dialog the first time only.
    func requestAlertAuthorization() async throws -> Bool
    /// `setNotificationCategories(_:)` with the region notifications' category and its actions, beside the
    /// app's other categories.
    func setCategory(_ identifier: String, actions: [RegionNotificationSettings.Action]) async
    /// `add(_:)` of a request with this identifier, content and category, delivered at once (no trigger).
    func post(identifier: String, title: String, body: String, threadIdentifier: String, categoryIdentifier: String) async throws
}
