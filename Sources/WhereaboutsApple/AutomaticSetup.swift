import Foundation
import Whereabouts
import WhereaboutsCore
import WhereaboutsStore

/// The engine a React Native, Expo or Capacitor app gets with no native code: when the app finishes
/// launching (also when iOS relaunches it in the background for a location event), the package's launch
/// observer (``installObserver()`` on iOS, called from the package's `+load`) opens the store, creates the
/// engine on a ``CoreLocationService`` with the bridge's uploader, installs the JavaScript ``Whereabouts/Bridge``,
/// registers the background refresh task, turns region notifications back on when JavaScript's
/// `configureNotifications` left them on, and launches the engine.
///
/// What it uses comes from the app's Info.plist:
/// - ``enabledKey`` (`WhereaboutsAutomaticSetup`) `false` turns it off, for an app that creates its engine
///   itself; an app that has installed a bridge by the time launching finishes keeps its own.
/// - ``refreshTaskKey`` (`WhereaboutsRefreshTaskIdentifier`, which the Expo plugin writes) names the
///   refresh task; without it, `<bundle identifier>.whereabouts.refresh`. The task runs only when the
///   Info.plist permits it (``WhereaboutsCore/AppSetup/allowsRefresh(_:)``).
///
/// The store is `Application Support/Whereabouts/whereabouts.sqlite`. Uploads go through an ordinary
/// `URLSession`, where JavaScript's `configure` says: a background session would need the app delegate's
/// `handleEventsForBackgroundURLSession`, which no package can provide without native code.
public struct AutomaticSetup: Sendable, Equatable {
    /// The Info.plist key that turns the automatic set-up off when `false`.
    public static let enabledKey = "WhereaboutsAutomaticSetup"
    /// The Info.plist key naming the refresh task's identifier.
    public static let refreshTaskKey = "WhereaboutsRefreshTaskIdentifier"

    /// Whether the set-up runs.
    public let enabled: Bool
    /// The store's file.
    public let storePath: String
    /// The refresh task's identifier.
    public let refreshTaskIdentifier: String

    /// The set-up an Info.plist describes.
    /// - Parameters:
    ///   - bundleIdentifier: the app's bundle identifier.
    ///   - value: reads an Info.plist entry.
    ///   - applicationSupport: the app's Application Support folder.
    public init(bundleIdentifier: String?, reading value: (String) -> Any?, applicationSupport: URL) {
        enabled = (value(Self.enabledKey) as? Bool) ?? true
        storePath =
            applicationSupport.appendingPathComponent("Whereabouts", isDirectory: true)
            .appendingPathComponent("whereabouts.sqlite").path
        let named = (value(Self.refreshTaskKey) as? String)?.trimmingCharacters(in: .whitespaces)
        refreshTaskIdentifier = named.flatMap { $0.isEmpty ? nil : $0 } ?? "\(bundleIdentifier ?? "whereabouts").whereabouts.refresh"
    }

    /// What ``start(reason:service:scheduler:notificationCenter:log:)`` created.
    public struct Started: Sendable {
        /// The engine.
        public let engine: LocationEngine
        /// The bridge now installed.
        public let bridge: Bridge
        /// The refresh task, registered when the Info.plist permits it.
        public let refresh: BackgroundRefreshTask
        /// The region notifier the bridge drives.
        public let notifier: RegionNotifier
        /// The engine's launch.
        public let launch: Task<LaunchOutcome?, Never>
    }

    /// Creates the store, the engine and its bridge on `service`, installs the bridge, registers and
    /// schedules the refresh task and launches the engine for `reason`. Call it on the main thread while
    /// the app finishes launching. `service` is created only when the set-up goes ahead: a throwaway
    /// service would start CoreLocation and CoreMotion and move the mark of the motion already read.
    /// - Returns: what was created, or `nil` when the set-up is off, the app installed its own bridge, or
    ///   the store could not be opened (logged; JavaScript's calls then answer `notConfigured`).
    @MainActor
    public func start(
        reason: LaunchReason, service: @autoclosure () -> CoreLocationService, scheduler: any TaskScheduling,
        notificationCenter: any NotificationCentering, log: AdapterLog = .system
    ) -> Started? {
        guard enabled else {
            log(.launch, .notice, "automatic set-up is off (\(Self.enabledKey) is false): the app creates its engine")
            return nil
        }
        guard Bridge.installed == nil else {
            log(.launch, .notice, "the app installed its own bridge: the automatic set-up creates nothing")
            return nil
        }
        guard
            let started = make(reason: reason, service: service(), scheduler: scheduler, notificationCenter: notificationCenter, log: log)
        else { return nil }
        Bridge.install(started.bridge)
        return started
    }

    /// What ``start(reason:service:scheduler:notificationCenter:log:)`` does but installing the bridge:
    /// for an app (or a test) that keeps its bridge itself.
    @MainActor
    public func make(
        reason: LaunchReason, service: CoreLocationService, scheduler: any TaskScheduling, notificationCenter: any NotificationCentering,
        log: AdapterLog = .system
    ) -> Started? {
        let store: SQLiteLocationStore
        do {
            try FileManager.default.createDirectory(
                atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            store = try SQLiteLocationStore(path: storePath)
        } catch {
            log(.launch, .error, "Whereabouts is not set up: the store at \(storePath) could not be opened: \(error)")
            return nil
        }
        let engine = LocationEngine(store: store, service: service, uploader: Bridge.uploader(store: store))
        let notifier = RegionNotifier(engine: engine, center: notificationCenter, log: log)
        let bridge = Bridge(engine: engine, notifications: notifier)
        if let notifications = try? store.setting(.regionNotifications), notifications.enabled {
            notifier.holdEvents()
            Task { _ = await notifier.apply(notifications) }
        }
        let refresh = BackgroundRefreshTask(
            identifier: refreshTaskIdentifier, engine: engine, scheduler: scheduler, setup: service.setup, log: log)
        let launch = RelaunchHandler(engine: engine, log: log).launch(reason)
        if refresh.register() {
            do {
                try refresh.schedule()
            } catch {
                log(.background, .error, "the first refresh could not be scheduled: \(error)")
            }
        }
        return Started(engine: engine, bridge: bridge, refresh: refresh, notifier: notifier, launch: launch)
    }
}
