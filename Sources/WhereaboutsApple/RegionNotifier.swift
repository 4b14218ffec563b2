#if canImport(UserNotifications) && canImport(CoreLocation) && canImport(os)
    import Foundation
    import UserNotifications
    import Whereabouts
    import WhereaboutsCore
    import os

    /// Optional local notifications on region events: each event of ``Whereabouts/LocationEngine/regionEvents()``
    /// that ``WhereaboutsCore/RegionNotificationText`` finds worth telling is posted at once through
    /// `UNUserNotificationCenter`. Nothing is asked or posted until the app calls ``enable()``.
    ///
    /// ```swift
    /// let notifier = RegionNotifier(engine: engine, kinds: [.exit]) { id in names[id] }
    /// if userWantsNotifications { try await notifier.enable() }
    /// ```
    ///
    /// A relaunch for a region crossing starts a new process: call ``enable()`` again at every launch on
    /// which the user wants notifications (once the user has answered, it shows no dialog). iOS shows
    /// these notifications while the app is in the background; to show them while it is in the foreground
    /// too, the app's `UNUserNotificationCenterDelegate` presents them.
    public final class RegionNotifier: @unchecked Sendable {
        private let engine: LocationEngine
        private let kinds: Set<RegionEventKind>
        private let regionName: @Sendable (String) -> String?
        private let lock = NSLock()
        private var relay: Task<Void, Never>?

        /// Creates a notifier; it posts nothing until ``enable()``.
        /// - Parameters:
        ///   - engine: the engine whose region events are notified.
        ///   - kinds: the kinds of event to notify; all three by default.
        ///   - regionName: the name the user knows a region by, from its id; `nil` shows the id.
        public init(
            engine: LocationEngine, kinds: Set<RegionEventKind> = Set(RegionEventKind.allCases),
            regionName: @escaping @Sendable (String) -> String? = { _ in nil }
        ) {
            self.engine = engine
            self.kinds = kinds
            self.regionName = regionName
        }

        /// Asks for permission to show alerts with sound (iOS shows its dialog the first time only) and,
        /// when it is given, starts posting a notification for each region event.
        /// - Returns: whether notifications are allowed.
        /// - Throws: the notification center's error when the request could not be made.
        @discardableResult
        public func enable() async throws -> Bool {
            let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
            if granted { startRelay() }
            return granted
        }

        /// Stops posting notifications (the permission stays as the user set it).
        public func disable() {
            lock.lock()
            let running = relay
            relay = nil
            lock.unlock()
            running?.cancel()
        }

        private func startRelay() {
            lock.lock()
            defer { lock.unlock() }
            guard relay == nil else { return }
            let events = engine.regionEvents()
            relay = Task { [kinds, regionName] in
                for await event in events {
                    guard let text = RegionNotificationText(event: event, regionName: regionName(event.regionID), kinds: kinds) else {
                        continue
                    }
                    await Self.post(text)
                }
            }
        }

        /// Posts one notification, delivered at once (no trigger).
        private static func post(_ text: RegionNotificationText) async {
            let content = UNMutableNotificationContent()
            content.title = text.title
            content.body = text.body
            content.sound = .default
            content.threadIdentifier = text.threadIdentifier
            let request = UNNotificationRequest(identifier: text.identifier, content: content, trigger: nil)
            do {
                try await UNUserNotificationCenter.current().add(request)
            } catch {
                AdapterLog.notifications.error(
                    "the notification \(text.identifier, privacy: .public) could not be posted: \(String(describing: error), privacy: .public)"
                )
            }
        }
    }
#endif
