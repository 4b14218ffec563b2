import Foundation
import Whereabouts
import WhereaboutsCore

/// The ``Whereabouts/LocationService`` of an iOS app: CoreLocation's standard updates, significant
/// changes, circular region monitoring, one-time fixes, visits and CoreMotion's activity, reported to the
/// engine as ``Whereabouts/LocationServiceEvent``s.
///
/// The service only translates. What to run comes from the core: ``configure(_:)`` applies
/// ``WhereaboutsCore/CoreLocationConfiguration``, ``monitor(_:)`` applies
/// ``WhereaboutsCore/MonitoredRegion/coreLocationRegion(maximumRegionMonitoringDistance:)``, and every
/// callback goes through the core's mapping functions (see ``CoreLocationReceiver``). A value the core
/// refuses becomes a ``Whereabouts/LocationServiceEvent/failure(_:)`` event.
///
/// The app's Info.plist (``WhereaboutsCore/AppSetup``) is read once: a feature whose key is missing is
/// left off with one log line and listed in ``setupProblems`` (and so in `LocationData.setupProblems`),
/// never started in a way that makes iOS end the app.
///
/// Threading: create the service on the main thread, in `application(_:didFinishLaunchingWithOptions:)`
/// before it returns, so that a relaunch for a location event finds a delegate to deliver to. The engine
/// calls the service from its actor; each call queues its work on the main queue in order and returns at
/// once. CoreLocation calls back on the main thread, where the managers were created.
///
/// Two managers: one runs the continuous services and the region monitoring, the other takes one-time
/// fixes (`requestLocation()`) at their own accuracy without disturbing the first. Region, visit and
/// authorization callbacks are delivered to every manager of the app, so only the first manager's are
/// reported.
///
/// Regions: the OS keeps monitored regions across launches and shares them between all managers of the
/// app, so ``monitor(_:)`` makes the OS's set exactly the planned one (regions the app monitors outside
/// Whereabouts are stopped too).
public final class CoreLocationService: LocationService, @unchecked Sendable {
    /// The service's reports, in order: the authorization when the manager starts and whenever it
    /// changes, fixes (standard updates, significant changes, one-time fixes and visits), region states
    /// and failures. Buffered without limit until the engine reads them.
    public let events: AsyncStream<LocationServiceEvent>
    /// Where the managers' delegate hands CoreLocation's callbacks.
    public let receiver: CoreLocationReceiver
    /// What the app's Info.plist declares.
    public let setup: AppSetup
    /// The identifier of the app's ``BackgroundRefreshTask``, checked against the Info.plist in
    /// ``setupProblems``; `nil` when the app runs none.
    public let refreshTask: String?
    private let continuation: AsyncStream<LocationServiceEvent>.Continuation
    private let manager: any LocationManaging
    private let oneShotManager: any LocationManaging
    private let authorizationTracker: AuthorizationTracker
    private let monitorsVisits: Bool
    private let motion: MotionActivityReceiver
    private let liveUpdates: (any LiveUpdatesRunning)?
    private let settings: @MainActor @Sendable () -> Void
    private let log: AdapterLog
    /// Objects the platform holds weakly that must live as long as the service (CoreLocation's delegate).
    private var keptAlive: [AnyObject] = []
    /// What serves standard updates now; read and written on the main thread only.
    private var paths = StandardUpdatesPaths.none
    /// The configuration applied last, applied again when the authorization changes (the sessions
    /// wait for it); main thread only.
    private var applied: CoreLocationConfiguration?
    /// Whether the engine has regions monitored (``monitor(_:)``), which keeps the sessions; main thread only.
    private var regionsPlanned = false

    /// Creates the service on the given managers. Call it on the main thread. Apps use the convenience
    /// initializer that creates CoreLocation's managers; this one takes any ``LocationManaging``.
    ///
    /// - Parameters:
    ///   - manager: the manager of continuous services and regions.
    ///   - oneShotManager: the manager of one-time fixes.
    ///   - motion: CoreMotion's activity manager, or `nil` where there is none; left unused when the app
    ///     does not declare `NSMotionUsageDescription`.
    ///   - setup: what the app's Info.plist declares.
    ///   - refreshTask: the identifier of the app's ``BackgroundRefreshTask``, or `nil` when it runs
    ///     none; when the Info.plist does not permit it, ``setupProblems`` lists
    ///     ``WhereaboutsCore/SetupProblem/Code/refreshTaskNotPermitted``.
    ///   - showsBackgroundLocationIndicator: whether the status bar shows that an app with Always
    ///     authorization uses location in the background.
    ///   - monitorsVisits: whether CoreLocation's visits also run together with significant-change
    ///     monitoring (a mode that asks for visits, such as adaptive, gets them either way).
    ///   - defaults: where the service remembers that the app has asked for Always authorization, which
    ///     iOS lets an app do once, and when it was last delivered an event with motion activity on (for
    ///     the next process to read the motion history since).
    ///   - liveUpdates: the modern path for fine standard updates (``LiveUpdatesPlan``), on iOS 17 and
    ///     later; `nil` runs every request on `manager`.
    ///   - openSettings: opens the app's page in the Settings app.
    ///   - log: where the service logs.
    ///   - now: the clock, which tells how long the service was quiet (``MotionActivityReceiver``).
    @MainActor
    public init(
        manager: any LocationManaging, oneShotManager: any LocationManaging, motion: (any MotionActivityManaging)?, setup: AppSetup,
        refreshTask: String? = nil, showsBackgroundLocationIndicator: Bool = false, monitorsVisits: Bool = false,
        defaults: UserDefaults = .standard,
        liveUpdates: (any LiveUpdatesRunning)? = nil, openSettings: @escaping @MainActor @Sendable () -> Void,
        log: AdapterLog = .system, now: @escaping @Sendable () -> Date = Date.init
    ) {
        let (events, continuation) = AsyncStream.makeStream(of: LocationServiceEvent.self)
        self.events = events
        self.continuation = continuation
        self.manager = manager
        self.oneShotManager = oneShotManager
        self.setup = setup
        self.refreshTask = refreshTask
        self.monitorsVisits = monitorsVisits
        self.settings = openSettings
        self.liveUpdates = liveUpdates
        self.log = log
        authorizationTracker = AuthorizationTracker(defaults: defaults)
        let motion = MotionActivityReceiver(
            manager: setup.allowsMotion ? motion : nil, continuation: continuation, defaults: defaults, now: now)
        self.motion = motion
        receiver = CoreLocationReceiver(primary: manager, deliver: motion.deliver, authorization: authorizationTracker)
        receiver.authorizationDidChange = { [weak self] in self?.reapply() }
        // The refresh task's problem is logged by BackgroundRefreshTask.register().
        for problem in setup.problems() { log(.launch, .error, problem.message) }
        manager.showsBackgroundLocationIndicator = showsBackgroundLocationIndicator
        if case .failure(let problem) = authorizationTracker.refresh(from: manager) {
            continuation.yield(.failure(CoreLocationReceiver.authorizationFailure(problem)))
        }
    }

    deinit { continuation.finish() }

    /// What the app's Info.plist lacks; each problem's feature is left off. The refresh task is checked
    /// when the service was given its identifier (``refreshTask``).
    public var setupProblems: [SetupProblem] { setup.problems(refreshTask: refreshTask) }

    /// The authorization CoreLocation reported last (read when the service was created and on every
    /// `locationManagerDidChangeAuthorization(_:)`).
    public func authorization() -> PlatformAuthorization { authorizationTracker.current }

    /// Applies the core's ``WhereaboutsCore/CoreLocationConfiguration`` for `request`: accuracy,
    /// distance filter, automatic pausing and background updates, then starts or stops standard
    /// updates, significant-change monitoring, visits and motion activity. Fine standard updates run on
    /// the modern path when there is one (``WhereaboutsCore/LiveUpdatesPlan``), the rest on the location
    /// manager; ``WhereaboutsCore/LiveUpdatesTransition`` decides what a change keeps, starts and ends, so
    /// that the sessions created when tracking started are held across changes of request made in the
    /// background.
    public func configure(_ request: LocationRequest) {
        let configuration = CoreLocationConfiguration(request, backgroundModeDeclared: setup.allowsBackgroundUpdates)
        let visits = configuration.visits || (monitorsVisits && configuration.significantChanges)
        motion.set(on: configuration.motionActivity)
        onMain { [self] in
            manager.desiredAccuracy = configuration.desiredAccuracy
            manager.distanceFilter = configuration.distanceFilter
            manager.pausesLocationUpdatesAutomatically = configuration.pausesLocationUpdatesAutomatically
            manager.allowsBackgroundLocationUpdates = configuration.allowsBackgroundLocationUpdates
            applied = configuration
            apply(
                LiveUpdatesTransition(
                    from: paths, to: configuration, regions: regionsPlanned, setup: setup, authorization: authorizationTracker.current,
                    modernPath: liveUpdates != nil))
            if configuration.significantChanges {
                manager.startMonitoringSignificantLocationChanges()
            } else {
                manager.stopMonitoringSignificantLocationChanges()
            }
            if visits {
                manager.startMonitoringVisits()
            } else {
                manager.stopMonitoringVisits()
            }
        }
    }

    /// Takes one fix with `requestLocation()` on the one-shot manager, at `accuracy`.
    public func requestOneShot(_ accuracy: LocationAccuracy) {
        let desiredAccuracy = accuracy.coreLocationDesiredAccuracy
        onMain { [self] in
            oneShotManager.desiredAccuracy = desiredAccuracy
            oneShotManager.requestLocation()
        }
    }

    /// Makes the OS monitor exactly `regions`: regions no longer planned are stopped, new or changed
    /// ones are started as `CLCircularRegion`s (matched by identifier, since the OS keeps only the
    /// region data), and unchanged ones are left running. The state of each started region that
    /// wants it (``WhereaboutsCore/CoreLocationRegion/requestsState``) is asked for
    /// (`requestState(for:)`) as soon as CoreLocation confirms it is monitored, so the engine learns
    /// whether the device is inside. When a region cannot be handed to the OS, every region is
    /// stopped and the failure is reported for all of them (``LocationServiceEvent/regionMonitoringFailed(id:_:)``
    /// with no id), so that the engine judges every region on fixes.
    public func monitor(_ regions: [MonitoredRegion]) {
        onMain { [self] in
            let planned: [CoreLocationRegion]
            do {
                let maximum = manager.maximumRegionMonitoringDistance
                planned = try regions.map { try $0.coreLocationRegion(maximumRegionMonitoringDistance: maximum) }
            } catch {
                continuation.yield(
                    .regionMonitoringFailed(
                        id: nil,
                        LocationServiceFailure(
                            source: "CoreLocation region monitoring", problem: "\(error)",
                            fix: "no region is handed to the OS; crossings are found from fixes while location updates run")))
                planned = []
            }
            receiver.statesWanted = Set(planned.filter(\.requestsState).map(\.identifier))
            if regionsPlanned != !regions.isEmpty {
                regionsPlanned = !regions.isEmpty
                reapply()
            }
            let monitored = manager.monitoredCircles
            let wanted = Set(planned.map(\.identifier))
            for identifier in monitored.keys.sorted() where !wanted.contains(identifier) {
                manager.stopMonitoring(identifier: identifier)
            }
            for region in planned where !Self.isMonitored(region, as: monitored[region.identifier] ?? nil) {
                manager.startMonitoring(circle: region)
            }
        }
    }

    /// Shows CoreLocation's dialog: `requestWhenInUseAuthorization()` for foreground,
    /// `requestAlwaysAuthorization()` for background. Asking for Always is remembered, since iOS shows
    /// that dialog once per install; from then on the authorization reports that it cannot prompt.
    /// Without the usage string iOS would ignore the request: nothing is asked, and a failure names the
    /// missing key.
    public func requestAuthorization(_ kind: PermissionKind) {
        onMain { [self] in
            let allowed = kind == .foreground ? setup.allowsWhenInUseRequest : setup.allowsAlwaysRequest
            guard allowed else {
                let missing = setup.problems().filter {
                    $0.code == .whenInUseUsageDescriptionMissing || (kind == .background && $0.code == .alwaysUsageDescriptionMissing)
                }
                let keys = missing.map(\.key).joined(separator: " and ")
                log(.location, .error, "the \(kind.rawValue) permission was not asked for: Info.plist has no \(keys)")
                continuation.yield(
                    .failure(
                        LocationServiceFailure(
                            source: "Info.plist", problem: "no \(keys), so iOS would not show the \(kind.rawValue) permission dialog",
                            fix: "add \(keys) to the app's Info.plist with a sentence saying why the app uses location")))
                return
            }
            switch kind {
            case .foreground:
                manager.requestWhenInUseAuthorization()
            case .background:
                authorizationTracker.noteAlwaysRequested(
                    whileNotDetermined: manager.authorizationStatusCode == CoreLocationConstants.authorizationNotDetermined)
                manager.requestAlwaysAuthorization()
                if case .failure(let problem) = authorizationTracker.refresh(from: manager) {
                    continuation.yield(.failure(CoreLocationReceiver.authorizationFailure(problem)))
                }
            }
        }
    }

    /// Opens the app's page in the Settings app.
    public func openSettings() {
        onMain { [settings] in settings() }
    }

    /// Carries out `transition`'s steps in order.
    @MainActor
    private func apply(_ transition: LiveUpdatesTransition) {
        paths = transition.paths
        for step in transition.steps {
            switch step {
            case .createSessions(let sessions): liveUpdates?.holdSessions(sessions)
            case .startClassic: manager.startUpdatingLocation()
            case .startLive(let plan): liveUpdates?.startUpdates(plan) { [weak self] location in self?.deliverLive(location) }
            case .setLiveFilter(let metres): liveUpdates?.setDistanceFilter(metres)
            case .stopLive: liveUpdates?.stopUpdates()
            case .stopClassic: manager.stopUpdatingLocation()
            case .invalidateSessions: liveUpdates?.invalidateSessions()
            }
        }
    }

    /// A position from the live updates: reported like the manager's, and the classic updates kept
    /// for the hand-over stop.
    @MainActor
    private func deliverLive(_ location: ReportedLocation) {
        receiver.didUpdateLocations([location], from: manager)
        apply(.firstLivePosition(in: paths))
    }

    /// The authorization or the regions changed: the configuration applied last is applied again, which
    /// creates the sessions that waited for the authorization, or ends them when nothing is asked for.
    @MainActor
    private func reapply() {
        guard let applied else { return }
        apply(
            LiveUpdatesTransition(
                from: paths, to: applied, regions: regionsPlanned, setup: setup, authorization: authorizationTracker.current,
                modernPath: liveUpdates != nil))
    }

    /// Keeps `object` alive as long as the service.
    @MainActor
    func retain(_ object: AnyObject) { keptAlive.append(object) }

    /// Runs `work` on the main queue, after everything queued before it.
    private func onMain(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(work) }
    }

    /// Whether the OS already monitors `region` with the same parameters.
    private static func isMonitored(_ region: CoreLocationRegion, as existing: CoreLocationRegion?) -> Bool {
        guard let existing else { return false }
        return existing.latitude == region.latitude && existing.longitude == region.longitude && existing.radius == region.radius
            && existing.notifyOnEntry == region.notifyOnEntry && existing.notifyOnExit == region.notifyOnExit
    }
}
