#if os(iOS)
    import CoreLocation
    import Foundation
    import WhereaboutsCore

    /// The modern path's runner on iOS 17 and later. It carries out ``WhereaboutsCore/LiveUpdatesTransition``'s
    /// steps and decides nothing: a `CLBackgroundActivitySession` (with the `location` background mode)
    /// and on iOS 18 a `CLServiceSession` are created once, when tracking starts, and held until tracking
    /// stops, whichever path serves the requests between; `CLLocationUpdate.liveUpdates` runs for the
    /// fine requests, with the distance filter applied here.
    ///
    /// What is not known without a device: whether iOS ever sees a moment with no live updates when one
    /// iteration replaces another (the new iteration is created first and the old one is cancelled when
    /// the new one delivers, but the first update of an iteration may take a while); whether an app
    /// whose sessions are held but whose updates have stopped (a stop, on significant changes only) is
    /// let to start live updates again from the background under When In Use (Apple DTS says a session
    /// started in the foreground keeps the app in use; it says nothing of this case). On iOS 18 an update
    /// that says `insufficientlyInUse` is logged, which is what iOS reports when that was refused.
    @available(iOS 17.0, *)
    @MainActor
    final class CLLiveUpdatesRunner: LiveUpdatesRunning {
        private var updates: Task<Void, Never>?
        private var filter = DistanceFilter()
        private var backgroundSession: CLBackgroundActivitySession?
        private var serviceSession: (any Sendable)?
        private let log: AdapterLog

        init(log: AdapterLog = .system) { self.log = log }

        func holdSessions(_ sessions: LiveSessions) {
            if sessions.backgroundActivity, backgroundSession == nil { backgroundSession = CLBackgroundActivitySession() }
            if #available(iOS 18.0, *), serviceSession == nil {
                serviceSession = CLServiceSession(authorization: sessions.always ? .always : .whenInUse)
            }
        }

        func invalidateSessions() {
            backgroundSession?.invalidate()
            backgroundSession = nil
            if #available(iOS 18.0, *) { (serviceSession as? CLServiceSession)?.invalidate() }
            serviceSession = nil
        }

        func setDistanceFilter(_ metres: Double?) { filter.reset(metres: metres) }

        func stopUpdates() {
            updates?.cancel()
            updates = nil
        }

        func startUpdates(_ plan: LiveUpdatesPlan, deliver: @escaping @MainActor (ReportedLocation) -> Void) {
            let previous = updates
            filter.reset(metres: plan.distanceFilter)
            let configuration: CLLocationUpdate.LiveConfiguration = plan.kind == .navigation ? .otherNavigation : .default
            updates = Task { @MainActor [weak self, log] in
                // The iteration this one replaces goes on until this one delivers.
                var retiring = previous
                defer { retiring?.cancel() }
                var refused = false
                do {
                    for try await update in CLLocationUpdate.liveUpdates(configuration) {
                        retiring?.cancel()
                        retiring = nil
                        if #available(iOS 18.0, *), update.insufficientlyInUse != refused {
                            refused = update.insufficientlyInUse
                            if refused {
                                log(
                                    .location, .error,
                                    "live updates are paused: iOS says the app is not in use (insufficientlyInUse); they resume "
                                        + "when the app is opened")
                            }
                        }
                        guard let self else { return }
                        guard let location = update.location, self.admits(location) else { continue }
                        deliver(
                            ReportedLocation(
                                latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                                horizontalAccuracy: location.horizontalAccuracy, altitude: location.altitude,
                                verticalAccuracy: location.verticalAccuracy, speed: location.speed, course: location.course,
                                timestamp: location.timestamp))
                    }
                } catch {
                    if !Task.isCancelled { log(.location, .error, "live updates ended: \(error)") }
                }
            }
        }

        /// Whether the distance filter lets `location` through.
        private func admits(_ location: CLLocation) -> Bool {
            guard let position = try? Coordinate(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
            else { return true }
            return filter.admits(position)
        }
    }
#endif
