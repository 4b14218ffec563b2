import Foundation
import Logging
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// The one entry point for Swift apps: wires the pure ``Tracker`` to a ``LocationService`` (the
/// platform's positions), the SQLite store (the single source of truth) and the ``Uploader``.
///
/// Every decision is the core's; the engine feeds it inputs with the time they happened and performs
/// the effects it returns, in order. Configuration, the tracking-enabled flag, regions with their
/// states and permission records live in the store, so a relaunch by the OS (even after the app was
/// killed) restores the engine from disk: ``launch(_:)`` restarts the location service and asks for a
/// fresh fix.
///
/// ```swift
/// let engine = LocationEngine(store: try SQLiteLocationStore(path: path), service: service)
/// try await engine.launch(.user)
/// try await engine.start(mode: .adaptive())
/// for await event in engine.regionEvents() { show(event) }
/// ```
public actor LocationEngine {
    let store: SQLiteLocationStore
    let service: any LocationService
    let uploader: Uploader?
    let clock: EngineClock
    let logger: Logger
    let defaults: TrackerConfiguration
    let snapshotReportLimit: Int
    let recorder: EffectRecorder
    var tracker: Tracker
    var launched = false
    var trackingEnabled = false
    var lastTriedAt: Date?
    var fencePlannedAt: Date?
    var timers: [TimerID: (due: Date, task: Task<Void, Never>)] = [:]
    var fixWaiters: [UUID: CheckedContinuation<Fix?, Never>] = [:]
    var tasks: [Task<Void, Never>] = []
    var published: LocationData?
    var permissionCoordinator: PermissionCoordinator
    /// Counters of what the engine handled.
    public internal(set) var diagnostics = EngineDiagnostics()

    let locationBroadcast = Broadcast<LocationRecord>()
    let eventBroadcast = Broadcast<RegionEvent>()
    let snapshotBroadcast = Broadcast<LocationData>()

    /// Creates an engine; call ``launch(_:)`` next.
    /// - Parameters:
    ///   - store: the device's store.
    ///   - service: the platform's positions.
    ///   - uploader: sends stored records to a server; `nil` keeps them on the device.
    ///   - configuration: the Tracker's configuration on first launch; later launches use the stored one.
    ///   - permissions: the permission rules' tunables (the retry delay after a refused background request).
    ///   - snapshotReportLimit: at most this many pending records appear in ``snapshot``'s report.
    ///   - clock: the time source (the system clock in an app).
    ///   - logger: where the engine logs.
    public init(
        store: SQLiteLocationStore, service: any LocationService, uploader: Uploader? = nil,
        configuration: TrackerConfiguration = TrackerConfiguration(mode: .adaptive()),
        permissions: PermissionCoordinator.Configuration = .init(), snapshotReportLimit: Int = 1000,
        clock: EngineClock = .system, logger: Logger = Logger(label: "whereabouts.engine")
    ) {
        self.store = store
        self.service = service
        self.uploader = uploader
        self.defaults = configuration
        self.snapshotReportLimit = snapshotReportLimit
        self.clock = clock
        self.logger = logger
        self.recorder = EffectRecorder(store: store)
        self.tracker = Tracker(configuration: configuration)
        self.permissionCoordinator = PermissionCoordinator(configuration: permissions)
    }

    // MARK: Streams

    /// Every record the engine stores, as it is stored.
    public nonisolated func locations() -> AsyncStream<LocationRecord> { locationBroadcast.subscribe() }
    /// Every region event (enter, exit, dwell), as it happens.
    public nonisolated func regionEvents() -> AsyncStream<RegionEvent> { eventBroadcast.subscribe() }
    /// The ``LocationData`` snapshot, each time it changes.
    public nonisolated func snapshots() -> AsyncStream<LocationData> { snapshotBroadcast.subscribe() }

    // MARK: Lifecycle

    /// Restores the engine from the store and starts listening to the location service. Call it once
    /// per process, as early as possible (in `application(_:didFinishLaunchingWithOptions:)` on iOS).
    ///
    /// With tracking on, tracking restarts in the stored mode and a fresh fix is asked for. A launch
    /// by the OS (``LaunchReason/locationEvent`` or ``LaunchReason/backgroundTask``) while tracking is
    /// off starts nothing, logs a line and returns ``LaunchOutcome/trackingDisabled``.
    @discardableResult
    public func launch(_ reason: LaunchReason) throws(EngineError) -> LaunchOutcome {
        if launched { return trackingEnabled ? .tracking(tracker.mode) : .idle }
        let configuration: TrackerConfiguration
        let regions: [Region]
        let states: [String: StoredRegionState]
        let latest: LocationRecord?
        do {
            configuration = try store.setting(.configuration) ?? defaults
            trackingEnabled = try store.setting(.trackingEnabled) ?? false
            regions = try store.regions()
            states = try store.regionStates()
            latest = try store.latestRecord()
            if let saved = try store.setting(.permissions) {
                permissionCoordinator = PermissionCoordinator(permissions: saved, configuration: permissionCoordinator.configuration)
            }
        } catch {
            throw .store(error, doing: "restore the engine from \(store.path)")
        }
        tracker = Tracker(configuration: configuration, regions: regions)
        tracker.restore(
            lastRecord: latest?.fix,
            regionStates: states.mapValues { RestoredRegionState(inside: $0.inside, since: $0.since, dwelt: $0.dwelt) })
        launched = true
        listen()
        let now = clock.now()
        runPermissions(.authorizationChanged(service.authorization()), now: now)
        guard trackingEnabled else {
            publish()
            if reason == .user { return .idle }
            logger.notice("tracking is disabled; the \(reason.rawValue) launch starts nothing and the app may exit")
            return .trackingDisabled
        }
        logger.info("\(reason.rawValue) launch: tracking restarts in \(configuration.mode.name) mode")
        handle(.command(.start))
        Task { await uploader?.start() }
        return .tracking(tracker.mode)
    }

    private func listen() {
        let events = service.events
        tasks.append(Task { [weak self] in
            for await event in events { await self?.receive(event) }
        })
        if let reports = uploader?.reports {
            tasks.append(Task { [weak self] in
                for await report in reports { await self?.uploaded(report) }
            })
        }
    }

    /// Turns tracking on (in `mode`, or the configured one) and remembers that it is on, across
    /// relaunches.
    /// - Throws: ``EngineError/Code/permissionDenied`` when the OS denies location and will not ask
    ///   again (the app should offer Settings); tracking stays off.
    public func start(mode: TrackingMode? = nil) throws(EngineError) {
        try launch(.user)
        let now = clock.now()
        let authorization = service.authorization()
        runPermissions(.authorizationChanged(authorization), now: now)
        runPermissions(authorization.grantsForeground ? .request(.background) : .locationAction, now: now)
        if !authorization.grantsForeground && !authorization.canPrompt {
            publish()
            throw EngineError(.permissionDenied, permissionCoordinator.problem?.message ?? "location is not allowed for this app")
        }
        var configuration = tracker.configuration
        if let mode {
            handle(.command(.setMode(mode)))
            configuration = tracker.configuration
            configuration.mode = mode
        }
        do {
            try store.set(.configuration, configuration)
            try store.set(.trackingEnabled, true)
        } catch {
            throw .store(error, doing: "remember that tracking is on")
        }
        trackingEnabled = true
        handle(.command(.start))
        Task { await uploader?.start() }
    }

    /// Turns tracking off (location services off, regions no longer monitored, pending records
    /// uploaded) and remembers that it is off.
    public func stop() throws(EngineError) {
        try launch(.user)
        do { try store.set(.trackingEnabled, false) } catch { throw .store(error, doing: "remember that tracking is off") }
        trackingEnabled = false
        handle(.command(.stop))
    }

    /// Changes the tracking mode, now and for later launches.
    public func setMode(_ mode: TrackingMode) throws(EngineError) {
        try launch(.user)
        handle(.command(.setMode(mode)))
        var configuration = tracker.configuration
        configuration.mode = mode
        do { try store.set(.configuration, configuration) } catch { throw .store(error, doing: "store the mode") }
    }

    /// Stops listening and ends every stream, without changing what is stored: what an app process
    /// being killed looks like to the engine. A new engine on the same store picks up from here.
    public func shutdown() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        for (_, timer) in timers { timer.task.cancel() }
        timers.removeAll()
        for (_, waiter) in fixWaiters { waiter.resume(returning: nil) }
        fixWaiters.removeAll()
        locationBroadcast.finish()
        eventBroadcast.finish()
        snapshotBroadcast.finish()
        launched = false
    }

    /// The app came to the foreground: permissions are refreshed (and background permission asked
    /// for when the rules allow), and pending records are uploaded.
    public func appDidBecomeActive() throws(EngineError) {
        try launch(.user)
        runPermissions(.becameActive(service.authorization()), now: clock.now())
        handle(.lifecycle(.foreground))
    }

    /// The app went to the background.
    public func appDidEnterBackground() throws(EngineError) {
        try launch(.user)
        handle(.lifecycle(.background))
    }

    // MARK: Queries

    /// Whether tracking is on (it stays on across relaunches until ``stop()``).
    public var isTrackingEnabled: Bool { trackingEnabled }

    /// The ids of the regions the device is inside, sorted.
    public var insideRegionIDs: [String] { tracker.geofences.insideIDs }

    /// The configured tracking mode (during an active session, the mode it returns to is stored).
    public var mode: TrackingMode { tracker.mode }

    /// The newest position: the last stored record's fix, else the last fix held in memory, else `nil`.
    public func currentLocation() throws(EngineError) -> Fix? {
        do { return try store.latestRecord()?.fix ?? tracker.lastFix } catch { throw .store(error, doing: "read the last location") }
    }

    /// The newest `limit` stored records, oldest first, whatever their delivery state.
    public func recordedLocations(limit: Int = 1000) throws(EngineError) -> [LocationRecord] {
        do { return try store.recentRecords(limit: max(0, limit)) } catch { throw .store(error, doing: "read recorded locations") }
    }

    /// The newest `limit` region events, oldest first (initial states found when monitoring started
    /// included: see ``RegionEvent/initial``).
    public func recordedRegionEvents(limit: Int = 1000) throws(EngineError) -> [RegionEvent] {
        do { return try store.recentEvents(limit: max(0, limit)) } catch { throw .store(error, doing: "read region events") }
    }

    /// Every record not yet acknowledged by a server, in upload order.
    public func pendingLocations() throws(EngineError) -> [LocationRecord] {
        do { return try store.pendingRecords() } catch { throw .store(error, doing: "read pending locations") }
    }

    // MARK: Requests

    /// Takes one fix now and records it.
    public func requestLocationUpdate() throws(EngineError) {
        try launch(.user)
        handle(.command(.requestFix))
    }

    /// Tracks at full accuracy for `duration` seconds, then returns to the configured mode.
    /// - Throws: ``EngineError/Code/trackingDisabled`` while tracking is off, and
    ///   ``EngineError/Code/invalidArgument`` for a duration outside 1 s ... 24 h.
    public func startActiveTracking(for duration: TimeInterval) throws(EngineError) {
        try launch(.user)
        guard duration.isFinite, duration >= 1, duration <= 86_400 else {
            throw EngineError(.invalidArgument, "active tracking for \(duration) s is not in 1 s ... 24 h; pass a duration in that range")
        }
        guard trackingEnabled else {
            throw EngineError(.trackingDisabled, "active tracking needs tracking on; call start first")
        }
        handle(.command(.startActiveSession(duration: duration)))
    }
}
