#if canImport(CoreLocation)
    import CoreLocation
    import Foundation
    import Whereabouts
    import WhereaboutsCore

    /// The `CLLocationManagerDelegate` of ``CoreLocationService``'s two managers: turns each callback
    /// into a ``Whereabouts/LocationServiceEvent`` through the core's mapping functions.
    ///
    /// Region, visit and authorization callbacks reach the delegate of every manager in the app (Apple,
    /// `locationManager(_:didExitRegion:)`: "every active location manager object delivers this message
    /// to its associated delegate"), so they are taken from the primary manager only. Fixes and errors are
    /// taken from both: the one-shot manager delivers only its own.
    final class CoreLocationReceiver: NSObject, CLLocationManagerDelegate {
        private let primary: CLLocationManager
        private let continuation: AsyncStream<LocationServiceEvent>.Continuation
        private let authorization: AuthorizationTracker
        /// The identifiers of the planned regions whose state is asked for once monitoring starts; set
        /// by ``CoreLocationService/monitor(_:)`` on the main thread, where the callbacks arrive too.
        var statesWanted: Set<String> = []

        init(primary: CLLocationManager, continuation: AsyncStream<LocationServiceEvent>.Continuation, authorization: AuthorizationTracker)
        {
            self.primary = primary
            self.continuation = continuation
            self.authorization = authorization
        }

        /// The authorization changed, or the manager was just created.
        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            guard manager === primary else { return }
            switch authorization.refresh(from: manager) {
            case .success(let current): continuation.yield(.authorizationChanged(current))
            case .failure(let problem): continuation.yield(.failure(Self.authorizationFailure(problem)))
            }
        }

        /// Positions from standard updates, significant changes or a one-time request.
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            for location in locations {
                do {
                    let fix = try Fix.fromCoreLocation(
                        latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                        horizontalAccuracy: location.horizontalAccuracy, altitude: location.altitude,
                        verticalAccuracy: location.verticalAccuracy, speed: location.speed, course: location.course,
                        timestamp: location.timestamp)
                    continuation.yield(.fix(fix))
                } catch {
                    continuation.yield(
                        .failure(
                            LocationServiceFailure(
                                source: "CoreLocation", problem: "a location was unusable: \(error)",
                                fix: "it is skipped; the next location is used")))
                }
            }
        }

        /// A position could not be taken.
        func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            let fix =
                manager === primary
                ? "CoreLocation keeps trying on its own; if this repeats, check that Location Services are on and the app may use location"
                : "the one-time position was not taken; the next request tries again"
            continuation.yield(.failure(LocationServiceFailure(source: "CoreLocation", problem: Self.describe(error), fix: fix)))
        }

        /// A visit: an arrival at, or a departure from, a place where the device stayed.
        func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
            guard manager === primary else { return }
            do {
                let stay = try Visit.fromCoreLocation(
                    latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude,
                    horizontalAccuracy: visit.horizontalAccuracy, arrivalDate: visit.arrivalDate, departureDate: visit.departureDate)
                continuation.yield(.visit(stay))
            } catch {
                continuation.yield(
                    .failure(
                        LocationServiceFailure(
                            source: "CoreLocation visits", problem: "a visit was unusable: \(error)", fix: "it is skipped")))
            }
        }

        /// The OS confirmed a new region: ask where the device is relative to it, when the plan wants to know.
        func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
            guard manager === primary, statesWanted.contains(region.identifier) else { return }
            manager.requestState(for: region)
        }

        /// A region's state: after `requestState(for:)`, and on every boundary crossing (this callback
        /// accompanies `didEnterRegion` and `didExitRegion`, which are therefore not used). An unknown
        /// state says nothing and is not reported.
        func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
            guard manager === primary, let known = RegionState(coreLocationRegionState: state.rawValue) else { return }
            continuation.yield(.regionCrossing(id: region.identifier, state: known))
        }

        /// The OS could not monitor a region (too many regions, too large a radius, monitoring unavailable).
        func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
            guard manager === primary else { return }
            continuation.yield(
                .failure(
                    LocationServiceFailure(
                        source: "CoreLocation region \(region?.identifier ?? "(unknown)")", problem: Self.describe(error),
                        fix: "the region is not watched by the OS until the next plan; crossings are still found from fixes")))
        }

        /// The failure reported when CoreLocation's authorization values are ones the core does not know.
        static func authorizationFailure(_ problem: ValidationError) -> LocationServiceFailure {
            LocationServiceFailure(
                source: "CoreLocation authorization", problem: "\(problem)", fix: "the previous authorization is kept")
        }

        /// An error's text with its domain and code, for example `… (kCLErrorDomain 0)`.
        private static func describe(_ error: any Error) -> String {
            let error = error as NSError
            return "\(error.localizedDescription) (\(error.domain) \(error.code))"
        }
    }
#endif
