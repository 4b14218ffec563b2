#if os(iOS)
    import Foundation
    import UIKit
    import Whereabouts
    import WhereaboutsCore

    extension AutomaticSetup {
        @MainActor private static var observers: [any NSObjectProtocol] = []
        @MainActor private static var started: Started?

        /// The set-up the main bundle's Info.plist describes.
        public static var main: AutomaticSetup {
            AutomaticSetup(
                bundleIdentifier: Bundle.main.bundleIdentifier, reading: { Bundle.main.object(forInfoDictionaryKey: $0) },
                applicationSupport: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0])
        }

        /// Observes `UIApplication.didFinishLaunchingNotification` (once per process) and, when it comes,
        /// runs ``start(reason:service:scheduler:notificationCenter:log:)`` with the main bundle's set-up, a
        /// new ``CoreLocationService``, `BGTaskScheduler` and the notification centre, the reason read
        /// from the launch options. A set-up that could not open its store (the device not unlocked since
        /// it restarted, or locked with `Complete` data protection) is tried again
        /// (``protectedDataBecameAvailable()``) when `protectedDataDidBecomeAvailableNotification` or
        /// `didBecomeActiveNotification` comes. The React Native and Capacitor packages call it from
        /// `+load`, before `main` runs.
        @MainActor
        public static func installObserver() {
            guard observers.isEmpty else { return }
            let center = NotificationCenter.default
            observers.append(
                center.addObserver(forName: UIApplication.didFinishLaunchingNotification, object: nil, queue: .main) { notification in
                    let keys = (notification.userInfo ?? [:]).keys.compactMap {
                        ($0 as? UIApplication.LaunchOptionsKey)?.rawValue ?? $0 as? String
                    }
                    MainActor.assumeIsolated {
                        let setup = main
                        started = setup.start(
                            reason: RelaunchHandler.reason(launchOptionKeys: keys),
                            service: CoreLocationService(refreshTask: setup.refreshTaskIdentifier), scheduler: SystemTaskScheduler(),
                            notificationCenter: SystemNotificationCenter())
                    }
                })
            for name in [UIApplication.protectedDataDidBecomeAvailableNotification, UIApplication.didBecomeActiveNotification] {
                observers.append(
                    center.addObserver(forName: name, object: nil, queue: .main) { _ in
                        MainActor.assumeIsolated {
                            if let retried = protectedDataBecameAvailable() { started = retried }
                        }
                    })
            }
        }
    }
#endif
