#if os(iOS)
    import CoreLocation
    import Foundation
    import UIKit
    import WhereaboutsCore

    extension CLLocationManager: LocationManaging {
        public var authorizationStatusCode: Int32 { authorizationStatus.rawValue }
        public var accuracyAuthorizationCode: Int { accuracyAuthorization.rawValue }

        public var monitoredCircles: [String: CoreLocationRegion?] {
            Dictionary(
                monitoredRegions.map { region in
                    let circle = (region as? CLCircularRegion).map {
                        CoreLocationRegion(
                            identifier: $0.identifier, latitude: $0.center.latitude, longitude: $0.center.longitude, radius: $0.radius,
                            notifyOnEntry: $0.notifyOnEntry, notifyOnExit: $0.notifyOnExit)
                    }
                    return (region.identifier, circle)
                }, uniquingKeysWith: { first, _ in first })
        }

        public func startMonitoring(circle: CoreLocationRegion) {
            let region = CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: circle.latitude, longitude: circle.longitude), radius: circle.radius,
                identifier: circle.identifier)
            region.notifyOnEntry = circle.notifyOnEntry
            region.notifyOnExit = circle.notifyOnExit
            startMonitoring(for: region)
        }

        public func stopMonitoring(identifier: String) {
            for region in monitoredRegions where region.identifier == identifier { stopMonitoring(for: region) }
        }

        public func requestState(identifier: String) {
            for region in monitoredRegions where region.identifier == identifier { requestState(for: region) }
        }
    }

    /// The `CLLocationManagerDelegate` of both managers: hands each callback's values to the
    /// ``CoreLocationReceiver``. CoreLocation calls it on the main thread, where the managers were
    /// created; the `@preconcurrency` conformance checks that at run time.
    @MainActor
    final class CoreLocationDelegate: NSObject, @preconcurrency CLLocationManagerDelegate {
        private let receiver: CoreLocationReceiver

        init(receiver: CoreLocationReceiver) { self.receiver = receiver }

        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            receiver.didChangeAuthorization(manager)
        }

        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            let reported = locations.map {
                ReportedLocation(
                    latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, horizontalAccuracy: $0.horizontalAccuracy,
                    altitude: $0.altitude, verticalAccuracy: $0.verticalAccuracy, speed: $0.speed, course: $0.course,
                    timestamp: $0.timestamp)
            }
            receiver.didUpdateLocations(reported, from: manager)
        }

        func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            receiver.didFail(Self.describe(error), from: manager)
        }

        func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
            let reported = ReportedVisit(
                latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude, horizontalAccuracy: visit.horizontalAccuracy,
                arrivalDate: visit.arrivalDate, departureDate: visit.departureDate)
            receiver.didVisit(reported, from: manager)
        }

        func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
            receiver.didStartMonitoring(region.identifier, from: manager)
        }

        func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
            receiver.didDetermineState(state.rawValue, for: region.identifier, from: manager)
        }

        func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
            receiver.monitoringDidFail(region?.identifier, error: Self.describe(error), from: manager)
        }

        /// An error's text with its domain and code, for example `… (kCLErrorDomain 0)`.
        private static func describe(_ error: any Error) -> String {
            let error = error as NSError
            return "\(error.localizedDescription) (\(error.domain) \(error.code))"
        }
    }

    extension CoreLocationService {
        /// Creates the service on two new `CLLocationManager`s and CoreMotion's activity manager, reading
        /// the app's set-up from `bundle`'s Info.plist. Call it on the main thread, before
        /// `application(_:didFinishLaunchingWithOptions:)` returns.
        ///
        /// - Parameters:
        ///   - showsBackgroundLocationIndicator: `CLLocationManager.showsBackgroundLocationIndicator`.
        ///   - monitorsVisits: whether CoreLocation's visits also run together with significant-change
        ///     monitoring.
        ///   - bundle: the app's bundle, whose Info.plist says which features may run.
        ///   - refreshTask: the identifier of the app's ``BackgroundRefreshTask``, or `nil` when it runs
        ///     none; when the Info.plist does not permit it, ``setupProblems`` says so.
        ///   - defaults: where the service remembers that the app has asked for Always authorization.
        @MainActor
        public convenience init(
            showsBackgroundLocationIndicator: Bool = false, monitorsVisits: Bool = false, bundle: Bundle = .main,
            refreshTask: String? = nil, defaults: UserDefaults = .standard
        ) {
            let manager = CLLocationManager()
            let oneShotManager = CLLocationManager()
            self.init(
                manager: manager, oneShotManager: oneShotManager, motion: CoreMotionActivity.make(), setup: AppSetup(bundle: bundle),
                refreshTask: refreshTask, showsBackgroundLocationIndicator: showsBackgroundLocationIndicator,
                monitorsVisits: monitorsVisits, defaults: defaults,
                liveUpdates: Self.modernPath(), openSettings: Self.openSystemSettings)
            let delegate = CoreLocationDelegate(receiver: receiver)
            retain(delegate)
            manager.delegate = delegate
            oneShotManager.delegate = delegate
        }

        /// The modern path's runner on iOS 17 and later, else `nil`.
        @MainActor
        private static func modernPath() -> (any LiveUpdatesRunning)? {
            if #available(iOS 17.0, *) { return CLLiveUpdatesRunner() }
            return nil
        }

        /// Opens the app's page in the Settings app (`UIApplication.openSettingsURLString`).
        @MainActor
        private static func openSystemSettings() {
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
            UIApplication.shared.open(url, options: [:], completionHandler: nil)
        }
    }
#endif
