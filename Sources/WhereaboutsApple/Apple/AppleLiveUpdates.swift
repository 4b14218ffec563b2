#if os(iOS)
    import CoreLocation
    import Foundation
    import WhereaboutsCore

    /// The modern path's runner on iOS 17 and later: `CLLocationUpdate.liveUpdates`, with a
    /// `CLBackgroundActivitySession` held while the plan asks for one and, on iOS 18, a
    /// `CLServiceSession` for the authorization the app works under. A new plan ends the previous
    /// updates and sessions first.
    @available(iOS 17.0, *)
    @MainActor
    final class CLLiveUpdatesRunner: LiveUpdatesRunning {
        private var current: LiveUpdatesPlan?
        private var updates: Task<Void, Never>?
        private var backgroundSession: CLBackgroundActivitySession?
        private var serviceSession: (any Sendable)?

        func run(_ plan: LiveUpdatesPlan?, deliver: @escaping @MainActor (ReportedLocation) -> Void) {
            guard plan != current else { return }
            current = plan
            updates?.cancel()
            updates = nil
            backgroundSession?.invalidate()
            backgroundSession = nil
            if #available(iOS 18.0, *) { (serviceSession as? CLServiceSession)?.invalidate() }
            serviceSession = nil
            guard let plan else { return }
            if plan.backgroundActivity { backgroundSession = CLBackgroundActivitySession() }
            if #available(iOS 18.0, *) { serviceSession = CLServiceSession(authorization: plan.always ? .always : .whenInUse) }
            let configuration: CLLocationUpdate.LiveConfiguration = plan.kind == .navigation ? .otherNavigation : .default
            updates = Task { @MainActor in
                var filter = DistanceFilter(metres: plan.distanceFilter)
                do {
                    for try await update in CLLocationUpdate.liveUpdates(configuration) {
                        guard let location = update.location else { continue }
                        if let position = try? Coordinate(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude),
                            !filter.admits(position)
                        {
                            continue
                        }
                        deliver(
                            ReportedLocation(
                                latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                                horizontalAccuracy: location.horizontalAccuracy, altitude: location.altitude,
                                verticalAccuracy: location.verticalAccuracy, speed: location.speed, course: location.course,
                                timestamp: location.timestamp))
                    }
                } catch {
                    return
                }
            }
        }
    }
#endif
