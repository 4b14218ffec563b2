import Foundation

/// The part of `UNUserNotificationCenter` the notifier uses (`AppleNotifications.swift` adopts it).
public protocol NotificationCentering: Sendable {
    /// `requestAuthorization(options: [.alert, .sound])`: shows the dialog the first time only.
    func requestAlertAuthorization() async throws -> Bool
    /// `add(_:)` of a request with this identifier and content, delivered at once (no trigger).
    func post(identifier: String, title: String, body: String, threadIdentifier: String) async throws
}
