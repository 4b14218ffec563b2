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

        func post(identifier: String, title: String, body: String, threadIdentifier: String) async throws {
            let content = UNMutableNotificationContent()
            content.title = title
            content.body = body
            content.sound = .default
            content.threadIdentifier = threadIdentifier
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
