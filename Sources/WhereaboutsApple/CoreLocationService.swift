#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import Foundation
    import UIKit
    import Whereabouts
    import WhereaboutsCore

    /// The ``Whereabouts/LocationService`` of an iOS app: CoreLocation's standard updates, significant
    /// changes, circular region monitoring, one-time fixes and visits, reported to the engine as
    /// ``Whereabouts/LocationServiceEvent``s.
    ///
    /// The service only translates. What to run comes from the core: ``configure(_:)`` applies
    /// ``WhereaboutsCore/CoreLocationConfiguration``, ``monitor(_:)`` applies
    /// ``WhereaboutsCore/MonitoredRegion/coreLocationRegion(maximumRegionMonitoringDistance:)``, and
    /// every callback goes through the core's mapping functions (``WhereaboutsCore/Fix/fromCoreLocation(latitude:longitude:horizontalAccuracy:altitude:verticalAccuracy:speed:course:timestamp:source:)``,
    /// ``WhereaboutsCore/Visit/fromCoreLocation(latitude:longitude:horizontalAccuracy:arrivalDate:departureDate:)``,
    /// ``WhereaboutsCore/RegionState/init(coreLocationRegionState:)``,
    /// ``WhereaboutsCore/PlatformAuthorization/init(coreLocationStatus:accuracyAuthorization:provisional:alwaysPromptUsed:)``).
    /// A value the core refuses becomes a ``Whereabouts/LocationServiceEvent/failure(_:)`` event.
    ///
    /// Threading: create the service on the main thread, in
    /// `application(_:didFinishLaunchingWithOptions:)` before it returns, so that a relaunch for a
    /// location event finds a delegate to deliver to. The engine calls the service from its actor; each
    /// call queues its work on the main queue in order and returns at once. CoreLocation calls back on
    /// the main thread, where the managers were created.
    ///
    /// Two managers: one runs the continuous services and the region monitoring, the other takes
    /// one-time fixes (`requestLocation()`) at their own accuracy without disturbing the first. Region,
    /// visit and authorization callbacks are delivered to every manager of the app, so only the first
    /// manager's are reported.
    ///
    /// Regions: the OS keeps monitored regions across launches and shares them between all managers of
    /// the app, so ``monitor(_:)`` makes the OS's set exactly the planned one (regions the app monitors
    /// outside Whereabouts are stopped too).
    public final class CoreLocationService: LocationService, @unchecked Sendable {
        /// The service's reports, in order: the authorization when the manager starts and whenever it
        /// changes, fixes (standard updates, significant changes, one-time fixes and visits), region states
        /// and failures. Buffered without limit until the engine reads them.
        public let events: AsyncStream<LocationServiceEvent>
        private let continuation: AsyncStream<LocationServiceEvent>.Continuation
        private let manager: CLLocationManager
        private let oneShotManager: CLLocationManager
        private let receiver: CoreLocationReceiver
        private let authorizationTracker: AuthorizationTracker
        private let backgroundModeDeclared: Bool
        private let monitorsVisits: Bool
        private let motion: MotionActivityReceiver

        /// Creates the service and its location managers. Call it on the main thread.
        ///
        /// - Parameters:
        ///   - showsBackgroundLocationIndicator: `CLLocationManager.showsBackgroundLocationIndicator`: whether
        ///     the status bar shows that an app with Always authorization uses location in the background.
        ///   - monitorsVisits: whether CoreLocation's visits also run together with significant-change
        ///     monitoring, the other low-power service that relaunches the app (a mode that asks for visits,
        ///     such as adaptive, gets them either way).
        ///   - bundle: the app's bundle, whose Info.plist tells whether `UIBackgroundModes` lists `location`.
        ///   - defaults: where the service remembers that the app has asked for Always authorization, which
        ///     iOS lets an app do once.
        @MainActor
        public init(
            showsBackgroundLocationIndicator: Bool = false, monitorsVisits: Bool = false, bundle: Bundle = .main,
            defaults: UserDefaults = .standard
        ) {
            let (events, continuation) = AsyncStream.makeStream(of: LocationServiceEvent.self)
            self.events = events
            self.continuation = continuation
            manager = CLLocationManager()
            oneShotManager = CLLocationManager()
            authorizationTracker = AuthorizationTracker(defaults: defaults)
            receiver = CoreLocationReceiver(primary: manager, continuation: continuation, authorization: authorizationTracker)
            backgroundModeDeclared = Self.declaresLocationBackgroundMode(in: bundle)
            self.monitorsVisits = monitorsVisits
            motion = MotionActivityReceiver(continuation: continuation)
            manager.delegate = receiver
            oneShotManager.delegate = receiver
            manager.showsBackgroundLocationIndicator = showsBackgroundLocationIndicator
            if case .failure(let problem) = authorizationTracker.refresh(from: manager) {
                continuation.yield(.failure(CoreLocationReceiver.authorizationFailure(problem)))
            }
        }

        deinit { continuation.finish() }

        /// The authorization CoreLocation reported last (read when the service was created and on every
        /// `locationManagerDidChangeAuthorization(_:)`).
        public func authorization() -> PlatformAuthorization { authorizationTracker.current }

        /// Applies the core's ``WhereaboutsCore/CoreLocationConfiguration`` for `request`: accuracy,
        /// distance filter, automatic pausing and background updates, then starts or stops standard
        /// updates, significant-change monitoring, visits and motion activity.
        public func configure(_ request: LocationRequest) {
            let configuration = CoreLocationConfiguration(request, backgroundModeDeclared: backgroundModeDeclared)
            let visits = configuration.visits || (monitorsVisits && configuration.significantChanges)
            motion.set(on: configuration.motionActivity)
            onMain { [self] in
                manager.desiredAccuracy = configuration.desiredAccuracy
                manager.distanceFilter = configuration.distanceFilter
                manager.pausesLocationUpdatesAutomatically = configuration.pausesLocationUpdatesAutomatically
                manager.allowsBackgroundLocationUpdates = configuration.allowsBackgroundLocationUpdates
                if configuration.standardUpdates {
                    manager.startUpdatingLocation()
                } else {
                    manager.stopUpdatingLocation()
                }
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
        /// whether the device is inside. When region monitoring is unavailable on the device, every region
        /// is stopped and a failure is reported.
        public func monitor(_ regions: [MonitoredRegion]) {
            onMain { [self] in
                let planned: [CoreLocationRegion]
                do {
                    let maximum = manager.maximumRegionMonitoringDistance
                    planned = try regions.map { try $0.coreLocationRegion(maximumRegionMonitoringDistance: maximum) }
                } catch {
                    continuation.yield(
                        .failure(
                            LocationServiceFailure(
                                source: "CoreLocation region monitoring", problem: "\(error)",
                                fix: "no region is handed to the OS; crossings are found from fixes while location updates run")))
                    planned = []
                }
                receiver.statesWanted = Set(planned.filter(\.requestsState).map(\.identifier))
                let monitored = manager.monitoredRegions
                let wanted = Set(planned.map(\.identifier))
                for region in monitored where !wanted.contains(region.identifier) {
                    manager.stopMonitoring(for: region)
                }
                let byIdentifier = Dictionary(monitored.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
                for region in planned where !Self.isMonitored(region, as: byIdentifier[region.identifier]) {
                    let circle = CLCircularRegion(
                        center: CLLocationCoordinate2D(latitude: region.latitude, longitude: region.longitude), radius: region.radius,
                        identifier: region.identifier)
                    circle.notifyOnEntry = region.notifyOnEntry
                    circle.notifyOnExit = region.notifyOnExit
                    manager.startMonitoring(for: circle)
                }
            }
        }

        /// Shows CoreLocation's dialog: `requestWhenInUseAuthorization()` for foreground,
        /// `requestAlwaysAuthorization()` for background. Asking for Always is remembered, since iOS shows
        /// that dialog once per install; from then on the authorization reports that it cannot prompt.
        public func requestAuthorization(_ kind: PermissionKind) {
            onMain { [self] in
                switch kind {
                case .foreground:
                    manager.requestWhenInUseAuthorization()
                case .background:
                    authorizationTracker.noteAlwaysRequested(whileNotDetermined: manager.authorizationStatus == .notDetermined)
                    manager.requestAlwaysAuthorization()
                    if case .failure(let problem) = authorizationTracker.refresh(from: manager) {
                        continuation.yield(.failure(CoreLocationReceiver.authorizationFailure(problem)))
                    }
                }
            }
        }

        /// Opens the app's page in the Settings app (`UIApplication.openSettingsURLString`).
        public func openSettings() {
            Task { @MainActor in
                guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
                UIApplication.shared.open(url, options: [:], completionHandler: nil)
            }
        }

        /// Runs `work` on the main queue, after everything queued before it.
        private func onMain(_ work: @escaping @MainActor @Sendable () -> Void) {
            DispatchQueue.main.async { MainActor.assumeIsolated(work) }
        }

        /// Whether the OS already monitors `region` with the same parameters.
        private static func isMonitored(_ region: CoreLocationRegion, as existing: CLRegion?) -> Bool {
            guard let circle = existing as? CLCircularRegion else { return false }
            return circle.center.latitude == region.latitude && circle.center.longitude == region.longitude
                && circle.radius == region.radius && circle.notifyOnEntry == region.notifyOnEntry
                && circle.notifyOnExit == region.notifyOnExit
        }

        /// Whether the app's Info.plist lists `location` under `UIBackgroundModes`.
        private static func declaresLocationBackgroundMode(in bundle: Bundle) -> Bool {
            (bundle.object(forInfoDictionaryKey: "UIBackgroundModes") as? [String])?.contains("location") ?? false
        }
    }
#endif
