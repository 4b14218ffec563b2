#if os(iOS)
    import Foundation
    import UserNotifications
    import Whereabouts
    import WhereaboutsCore

    /// `UNUserNotificationCenter.current()` as a ``NotificationCentering``.
    struct SystemNotificationCenter: NotificationCentering {
        func requestAlertAuthorization() async throws -> Bool {
            try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
        }

        func setCategory(_ identifier: String, actions: [RegionNotificationSettings.Action]) async {
            let center = UNUserNotificationCenter.current()
            let others = await center.notificationCategories().filter { $0.identifier != identifier }
            let buttons = actions.map {
                UNNotificationAction(identifier: $0.identifier, title: $0.title, options: $0.opensApp ? [.foreground] : [])
            }
            center.setNotificationCategories(
                others.union([UNNotificationCategory(identifier: identifier, actions: buttons, intentIdentifiers: [], options: [])]))
        }

        func post(identifier: String, title: String, body: String, threadIdentifier: String, categoryIdentifier: String) async throws {
            let content = UNMutableNotificationContent()
            content.title = title
            content.body = body
            content.sound = .default
            content.threadIdentifier = threadIdentifier
            content.categoryIdentifier = categoryIdentifier
            try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
        }
    }

    extension RegionNotifier {
        /// Creates a notifier on `UNUserNotificationCenter.current()`; it posts nothing until ``enable()``.
        /// - Parameters:
        ///   - engine: the engine whose region events are notified.
        ///   - kinds: the kinds of event to notify; all three by default.
        ///   - regionName: the name the user knows a region by, from its id; `nil` shows the id.
        public convenience init(
            engine: LocationEngine, kinds: Set<RegionEventKind> = Set(RegionEventKind.allCases),
            regionName: @escaping @Sendable (String) -> String? = { _ in nil }
        ) {
            self.init(engine: engine, center: SystemNotificationCenter(), kinds: kinds, regionName: regionName)
        }
    }
#endif
