import Foundation
import Logging
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// The one runtime: wires the pure `Session` to a ``LocationService`` (the platform's positions),
/// the SQLite store (the single source of truth) and the `Uploader`. Apps run it, `whereabouts
/// track` runs it on gpsd, and `whereabouts simulate` runs it on the simulated phone.
///
/// The engine decides nothing. It hands each call, each report of the service and each wake-up to
/// the session with the time it happened, writes the session's store effects of that input in one
/// transaction, then performs the others in order and republishes the snapshot, which it keeps in
/// memory. What must outlive the process lives in the store, so a relaunch by the OS (even after the
/// app was killed) restores the engine from disk: ``launch(_:)`` reads the store once, restarts the
/// location service and asks for a fresh fix.
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
    let permissionRules: PermissionCoordinator.Configuration
    let snapshotReportLimit: Int
    let writer: StoreWriter
    /// Mints the id of each new record and region event, for the time it happened.
    let recordID: @Sendable (Date) -> UUID
    var session: Session
    var launched = false
    /// Whether ``shutdown()`` ran: from then on the engine takes no input and does not launch again.
    var isShutDown = false
    /// The newest record (read at launch, then kept by effects), and whether a server refused it.
    var newestRecord: (record: LocationRecord, rejected: Bool)?
    /// The pending records the snapshot lists, kept by effects and upload reports.
    var pending: PendingWindow
    /// Bumped whenever ``pending`` changes, so an unchanged report is not rebuilt.
    var pendingVersion = 0
    var publishedKey: SnapshotKey?
    var wake: (due: Date, task: Task<Void, Never>)?
    var listener: Task<Void, Never>?
    var fixWaiters: [UUID: CheckedContinuation<Fix?, Never>] = [:]
    /// Counters of what the engine handled.
    public internal(set) var diagnostics = EngineDiagnostics()

    let locationBroadcast = Broadcast<LocationRecord>(buffer: LocationEngine.streamBacklog)
    let eventBroadcast = Broadcast<RegionEvent>(buffer: LocationEngine.streamBacklog)
    let snapshotBroadcast = Broadcast<LocationData>()
    let uploadBroadcast = Broadcast<FlushReport>()

    /// Creates an engine; call ``launch(_:)`` next.
    /// - Parameters:
    ///   - store: the device's store.
    ///   - service: the platform's positions.
    ///   - uploader: sends stored records to a server; `nil` keeps them on the device. It should run on
    ///     the same `clock`.
    ///   - configuration: the Tracker's configuration on first launch; later launches use the stored one.
    ///   - permissions: the permission rules' tunables (the retry delay after a refused background request).
    ///   - snapshotReportLimit: at most this many pending records appear in ``snapshot()``'s report.
    ///   - clock: the time source and task starter (the system clock in an app).
    ///   - recordIDs: mints the id of each new record and region event for its time (time-ordered
    ///     random ids in an app; seeded ones in a replayable simulation).
    ///   - logger: where the engine logs.
    public init(
        store: SQLiteLocationStore, service: any LocationService, uploader: Uploader? = nil,
        configuration: TrackerConfiguration = TrackerConfiguration(mode: .adaptive()),
        permissions: PermissionCoordinator.Configuration = .init(), snapshotReportLimit: Int = 1000,
        clock: EngineClock = .system, recordIDs: @escaping @Sendable (Date) -> UUID = { RecordID.make(at: $0) },
        logger: Logger = Logger(label: "whereabouts.engine")
    ) {
        self.store = store
        self.service = service
        self.uploader = uploader
        self.defaults = configuration
        self.permissionRules = permissions
        self.snapshotReportLimit = snapshotReportLimit
        self.clock = clock
        self.recordID = recordIDs
        self.logger = logger
        self.writer = StoreWriter(store: store)
        self.session = Session(restoring: .empty, defaults: configuration, permissionRules: permissions)
        self.pending = PendingWindow(pending: [], limit: snapshotReportLimit)
    }

    // MARK: Streams

    /// How many records (and, apart, region events) a subscriber may fall behind before it loses the
    /// oldest it has not read: a burst (a long replay, regions added around the device) never
    /// overflows it, and the store keeps everything whatever a stream loses.
    public static let streamBacklog = 10_000

    /// Every record the engine stores, once it is stored. A subscriber more than ``streamBacklog``
    /// records behind loses the oldest unread.
    public nonisolated func locations() -> AsyncStream<LocationRecord> { locationBroadcast.subscribe() }
    /// Every region event (enter, exit, dwell), once it is stored. A subscriber more than
    /// ``streamBacklog`` events behind loses the oldest unread.
    public nonisolated func regionEvents() -> AsyncStream<RegionEvent> { eventBroadcast.subscribe() }
    /// The `LocationData` snapshot, each time it changes; a subscriber behind by 256 snapshots loses
    /// the oldest (each snapshot replaces the one before).
    public nonisolated func snapshots() -> AsyncStream<LocationData> { snapshotBroadcast.subscribe() }
    /// The report of every flush the uploader finishes, once the engine has acted on it (the newest
    /// 256 a subscriber has not read).
    public nonisolated func uploads() -> AsyncStream<FlushReport> { uploadBroadcast.subscribe() }

    // MARK: Lifecycle

    /// Restores the engine from the store (read once, here) and starts listening to the location
    /// service. Call it once per process, as early as possible (in
    /// `application(_:didFinishLaunchingWithOptions:)` on iOS).
    ///
    /// With tracking on, tracking restarts in the stored mode and a fresh fix is asked for; commands
    /// a server sent that were not carried out before the process ended are carried out now. A launch
    /// by the OS (`LaunchReason/locationEvent` or `LaunchReason/backgroundTask`) while tracking is
    /// off starts nothing, logs a line and returns ``LaunchOutcome/trackingDisabled``.
    @discardableResult
    public func launch(_ reason: LaunchReason) throws(EngineError) -> LaunchOutcome {
        if launched || isShutDown { return session.isTracking ? .tracking(session.configuration.mode) : .idle }
        let saved: SavedSession
        let waiting: [LocationRecord]
        let commands: [DeviceCommand]
        do {
            saved = try store.savedSession()
            waiting = try store.pendingRecords(order: .latestFirst, limit: snapshotReportLimit).reversed()
            commands = try store.unappliedCommands()
        } catch {
            throw .store(error, doing: "restore the engine from \(store.path)")
        }
        session = Session(restoring: saved, defaults: defaults, permissionRules: permissionRules)
        uploader?.account?.update { $0 = saved.uploads }
        newestRecord = saved.lastRecord.map { ($0, false) }
        pending = PendingWindow(pending: waiting, limit: snapshotReportLimit)
        pendingVersion += 1
        launched = true
        listen()
        perform(.launch(reason, service.authorization()))
        if !commands.isEmpty { perform(.serverCommands(commands)) }
        guard session.isTracking else {
            if reason == .user { return .idle }
            logger.notice("tracking is disabled; the \(reason.rawValue) launch starts nothing and the app may exit")
            return .trackingDisabled
        }
        logger.info("\(reason.rawValue) launch: tracking restarts in \(session.configuration.mode.name) mode")
        return .tracking(session.configuration.mode)
    }

    private func listen() {
        let events = service.events
        listener = clock.spawn { [weak self] in
            for await event in events { await self?.receive(event) }
        }
        uploader?.setReportHandler { [weak self] report in
            await self?.uploaded(report)
            self?.uploadBroadcast.yield(report)
        }
    }

    /// Turns tracking on (in `mode`, or the configured one) and remembers that it is on, across
    /// relaunches.
    /// - Throws: `Refusal/Code/permissionDenied` when the OS denies location and will not ask
    ///   again (the app should offer Settings); tracking stays off. `Refusal/Code/storeFailure`
    ///   when the store cannot remember it; nothing changes.
    public func start(mode: TrackingMode? = nil) throws(EngineError) {
        try launch(.user)
        try request(.start(mode, service.authorization()), doing: "remember that tracking is on")
    }

    /// Turns tracking off (location services off, regions no longer monitored, pending records
    /// uploaded) and remembers that it is off.
    public func stop() throws(EngineError) {
        try launch(.user)
        try request(.stop, doing: "remember that tracking is off")
    }

    /// Changes the tracking mode, now and for later launches.
    public func setMode(_ mode: TrackingMode) throws(EngineError) {
        try launch(.user)
        try request(.setMode(mode), doing: "store the mode")
    }

    /// Stops listening and ends every stream, without changing what is stored: what an app process
    /// being killed looks like to the engine. A new engine on the same store picks up from here; this
    /// one takes no input any more (an upload under way that ends later settles its records in the
    /// store, and the commands it brought wait there for the next engine) and does not launch again.
    /// Writes waiting in memory because the store refused them (a full disk) are tried once more
    /// first; what still cannot be stored shows in ``diagnostics`` (``EngineDiagnostics/storeBacklog``).
    public func shutdown() {
        retryBacklog()
        isShutDown = true
        listener?.cancel()
        listener = nil
        wake?.task.cancel()
        wake = nil
        for (_, waiter) in fixWaiters { waiter.resume(returning: nil) }
        fixWaiters.removeAll()
        locationBroadcast.finish()
        eventBroadcast.finish()
        snapshotBroadcast.finish()
        uploadBroadcast.finish()
        launched = false
    }

    /// The app came to the foreground: permissions are refreshed (and background permission asked
    /// for when the rules allow), and pending records are uploaded.
    public func appDidBecomeActive() throws(EngineError) {
        try launch(.user)
        perform(.becameActive(service.authorization()))
    }

    /// The app went to the background.
    public func appDidEnterBackground() throws(EngineError) {
        try launch(.user)
        perform(.enteredBackground)
    }

    // MARK: Queries

    /// Whether tracking is on (it stays on across relaunches until ``stop()``).
    public var isTrackingEnabled: Bool { session.isTracking }

    /// The ids of the regions the device is inside, sorted.
    public var insideRegionIDs: [String] { session.tracker.geofences.insideIDs }

    /// The tracking mode in force: during active tracking, continuous at best accuracy (the
    /// configured mode returns when it ends).
    public var mode: TrackingMode { session.tracker.mode }

    /// The newest position: the last fix the engine accepted, else the newest stored record's fix,
    /// else `nil`.
    public func currentLocation() -> Fix? { session.tracker.lastFix ?? newestRecord?.record.fix }

    /// The newest `limit` stored records, oldest first, whatever their delivery state.
    public func recordedLocations(limit: Int = 1000) throws(EngineError) -> [LocationRecord] {
        do { return try store.recentRecords(limit: max(0, limit)) } catch { throw .store(error, doing: "read recorded locations") }
    }

    /// The newest `limit` region events, oldest first (initial states found when monitoring started
    /// included: see `RegionEvent/initial`).
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
        perform(.requestFix)
    }

    /// Tracks at full accuracy for `duration` seconds, then returns to the configured mode.
    /// - Throws: `Refusal/Code/trackingDisabled` while tracking is off, and
    ///   `Refusal/Code/invalidArgument` for a duration outside 1 s ... 24 h.
    public func startActiveTracking(for duration: TimeInterval) throws(EngineError) {
        try launch(.user)
        try request(.startActiveTracking(duration: duration), doing: "start active tracking")
    }
}
