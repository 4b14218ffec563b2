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
    ///
    /// When the store cannot be opened (a background relaunch for a location event before the first
    /// unlock after a reboot, or at any time while the device is locked when the app's data protection
    /// is `Complete`: the files cannot be read then), the set-up waits instead of giving up: the service
    /// is kept, so CoreLocation's delegate lives and the event that woke the app waits in its stream for
    /// the engine; the refresh task is registered at once (BGTaskScheduler refuses a registration after
    /// launching has finished), its runs ending unsuccessfully until the engine exists; and
    /// ``protectedDataBecameAvailable()`` tries again, which the package's observer calls when
    /// `UIApplication.protectedDataDidBecomeAvailableNotification` or `didBecomeActiveNotification` comes.
    /// - Returns: what was created, or `nil` when the set-up is off, the app installed its own bridge, or
    ///   the store could not be opened (logged; JavaScript's calls answer `notConfigured` until a retry
    ///   succeeds).
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
        let service = service()
        let waiting = Waiting(
            setup: self, reason: reason, service: service, scheduler: scheduler, notificationCenter: notificationCenter, log: log,
            route: nil)
        switch waiting.attempt() {
        case .started(let started):
            return started
        case .storeUnavailable:
            let route = RefreshRoute(log: log)
            if service.setup.allowsRefresh(refreshTaskIdentifier),
                !scheduler.register(identifier: refreshTaskIdentifier, launchHandler: { [route] in route.run($0) })
            {
                log(.background, .error, "the refresh task '\(refreshTaskIdentifier)' could not be registered")
            }
            Self.waiting = waiting.routing(to: route)
            return nil
        }
    }

    /// Tries again a ``start(reason:service:scheduler:notificationCenter:log:)`` that could not open the
    /// store, on the service it kept, with the reason of the launch: the package's observer calls it
    /// when protected data becomes available and whenever the app becomes active. Call it on the main
    /// thread.
    /// - Returns: what was created; `nil` when no set-up is waiting, or the store still cannot be opened
    ///   (the set-up keeps waiting), or the app has installed its own bridge meanwhile (the set-up stops
    ///   waiting).
    @MainActor
    @discardableResult
    public static func protectedDataBecameAvailable() -> Started? {
        guard let waiting else { return nil }
        guard Bridge.installed == nil else {
            waiting.log(.launch, .notice, "the app installed its own bridge: the automatic set-up stops waiting for its store")
            Self.waiting = nil
            return nil
        }
        guard case .started(let started) = waiting.attempt() else { return nil }
        Self.waiting = nil
        return started
    }

    /// Whether a set-up is waiting for its store (``protectedDataBecameAvailable()``).
    @MainActor
    public static var isWaitingForStore: Bool { waiting != nil }

    @MainActor private static var waiting: Waiting?

    /// What ``start(reason:service:scheduler:notificationCenter:log:)`` does but installing the bridge:
    /// for an app (or a test) that keeps its bridge itself.
    @MainActor
    public func make(
        reason: LaunchReason, service: CoreLocationService, scheduler: any TaskScheduling, notificationCenter: any NotificationCentering,
        log: AdapterLog = .system
    ) -> Started? {
        guard let store = openStore(log: log) else { return nil }
        return make(
            store: store, reason: reason, service: service, scheduler: scheduler, notificationCenter: notificationCenter, log: log,
            registersRefresh: true)
    }

    /// The store, or `nil` (logged) when it cannot be opened.
    private func openStore(log: AdapterLog) -> SQLiteLocationStore? {
        do {
            try FileManager.default.createDirectory(
                atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try SQLiteLocationStore(path: storePath)
        } catch {
            log(.launch, .error, "Whereabouts is not set up: the store at \(storePath) could not be opened: \(error)")
            return nil
        }
    }

    /// The engine and the rest on `store`; the refresh task is registered when `registersRefresh`, else
    /// it was registered before (``RefreshRoute``) and only scheduled here.
    @MainActor
    private func make(
        store: SQLiteLocationStore, reason: LaunchReason, service: CoreLocationService, scheduler: any TaskScheduling,
        notificationCenter: any NotificationCentering, log: AdapterLog, registersRefresh: Bool
    ) -> Started {
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
        if registersRefresh ? refresh.register() : service.setup.allowsRefresh(refreshTaskIdentifier) {
            do {
                try refresh.schedule()
            } catch {
                log(.background, .error, "the first refresh could not be scheduled: \(error)")
            }
        }
        return Started(engine: engine, bridge: bridge, refresh: refresh, notifier: notifier, launch: launch)
    }

    /// A set-up started once: what it was given, and where the refresh task's runs go when it was
    /// registered before the engine existed.
    private struct Waiting {
        enum Attempt {
            case started(Started)
            case storeUnavailable
        }

        let setup: AutomaticSetup
        let reason: LaunchReason
        let service: CoreLocationService
        let scheduler: any TaskScheduling
        let notificationCenter: any NotificationCentering
        let log: AdapterLog
        let route: RefreshRoute?

        /// Opens the store and, when it opens, creates the engine and installs the bridge.
        @MainActor
        func attempt() -> Attempt {
            guard let store = setup.openStore(log: log) else { return .storeUnavailable }
            let started = setup.make(
                store: store, reason: reason, service: service, scheduler: scheduler, notificationCenter: notificationCenter, log: log,
                registersRefresh: route == nil)
            route?.deliver(to: started.refresh)
            Bridge.install(started.bridge)
            return .started(started)
        }

        func routing(to route: RefreshRoute) -> Waiting {
            Waiting(
                setup: setup, reason: reason, service: service, scheduler: scheduler, notificationCenter: notificationCenter, log: log,
                route: route)
        }
    }
}

/// The refresh task's launch handler while the engine does not exist yet: a run that comes before it
/// ends unsuccessfully; once the engine exists, runs are its ``BackgroundRefreshTask``'s. BGTaskScheduler
/// calls the handler on a queue of its own.
private final class RefreshRoute: @unchecked Sendable {
    private let lock = NSLock()
    private var refresh: BackgroundRefreshTask?
    private let log: AdapterLog

    init(log: AdapterLog) { self.log = log }

    func deliver(to refresh: BackgroundRefreshTask) { lock.withLock { self.refresh = refresh } }

    func run(_ task: any BackgroundTaskRun) {
        guard let refresh = lock.withLock({ refresh }) else {
            log(.background, .notice, "refresh skipped: the store cannot be opened until the device is unlocked")
            task.setTaskCompleted(success: false)
            return
        }
        refresh.run(task)
    }
}
