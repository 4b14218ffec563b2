import Foundation
import Whereabouts
import WhereaboutsCore

/// What ``CoreLocationService``'s two managers report, turned into ``Whereabouts/LocationServiceEvent``s
/// through the core's mapping functions. The platform's delegate (`AppleLocationManager.swift`) hands
/// each `CLLocationManagerDelegate` callback here with its values; tests call it as iOS would.
///
/// Region, visit and authorization callbacks reach the delegate of every manager in the app (Apple,
/// `locationManager(_:didExitRegion:)`: "every active location manager object delivers this message
/// to its associated delegate"), so they are taken from the primary manager only. Fixes and errors are
/// taken from both: the one-shot manager delivers only its own.
@MainActor
public final class CoreLocationReceiver {
    private weak var primary: (any LocationManaging)?
    /// Where each event goes: the motion receiver, which hands it on after any motion history missed
    /// while the app was suspended.
    private let deliver: @Sendable (LocationServiceEvent) -> Void
    private let authorization: AuthorizationTracker
    /// The identifiers of the planned regions whose state is asked for once monitoring starts; set
    /// by ``CoreLocationService/monitor(_:)`` on the main thread, where the callbacks arrive too.
    var statesWanted: Set<String> = []
    /// Called after each authorization the primary manager reports; set by ``CoreLocationService``.
    var authorizationDidChange: (@MainActor () -> Void)?

    init(primary: any LocationManaging, deliver: @escaping @Sendable (LocationServiceEvent) -> Void, authorization: AuthorizationTracker) {
        self.primary = primary
        self.deliver = deliver
        self.authorization = authorization
    }

    /// `locationManagerDidChangeAuthorization(_:)`: the authorization changed, or the manager was just created.
    public func didChangeAuthorization(_ manager: any LocationManaging) {
        guard manager === primary else { return }
        switch authorization.refresh(from: manager) {
        case .success(let current):
            deliver(.authorizationChanged(current))
            authorizationDidChange?()
        case .failure(let problem): deliver(.failure(Self.authorizationFailure(problem)))
        }
    }

    /// `locationManager(_:didUpdateLocations:)`: positions from standard updates, significant changes or
    /// a one-time request.
    public func didUpdateLocations(_ locations: [ReportedLocation], from manager: any LocationManaging) {
        for location in locations {
            do {
                deliver(.fix(try location.fix()))
            } catch {
                deliver(
                    .failure(
                        LocationServiceFailure(
                            source: "CoreLocation", problem: "a location was unusable: \(error)",
                            fix: "it is skipped; the next location is used")))
            }
        }
    }

    /// `locationManager(_:didFailWithError:)`: a position could not be taken. `error` is the error's
    /// text with its domain and code.
    public func didFail(_ error: String, from manager: any LocationManaging) {
        let fix =
            manager === primary
            ? "CoreLocation keeps trying on its own; if this repeats, check that Location Services are on and the app may use location"
            : "the one-time position was not taken; the next request tries again"
        deliver(.failure(LocationServiceFailure(source: "CoreLocation", problem: error, fix: fix)))
    }

    /// `locationManager(_:didVisit:)`: an arrival at, or a departure from, a place where the device stayed.
    public func didVisit(_ visit: ReportedVisit, from manager: any LocationManaging) {
        guard manager === primary else { return }
        do {
            let stay = try Visit.fromCoreLocation(
                latitude: visit.latitude, longitude: visit.longitude, horizontalAccuracy: visit.horizontalAccuracy,
                arrivalDate: visit.arrivalDate, departureDate: visit.departureDate)
            deliver(.visit(stay))
        } catch {
            deliver(
                .failure(
                    LocationServiceFailure(source: "CoreLocation visits", problem: "a visit was unusable: \(error)", fix: "it is skipped")))
        }
    }

    /// `locationManager(_:didStartMonitoringFor:)`: the OS confirmed a new region; ask where the device is
    /// relative to it when the plan wants to know.
    public func didStartMonitoring(_ identifier: String, from manager: any LocationManaging) {
        guard manager === primary, statesWanted.contains(identifier) else { return }
        manager.requestState(identifier: identifier)
    }

    /// `locationManager(_:didDetermineState:for:)` with `state.rawValue`: after `requestState(for:)`, and on
    /// every boundary crossing (this callback accompanies `didEnterRegion` and `didExitRegion`, which are
    /// therefore not used). An unknown state says nothing and is not reported.
    public func didDetermineState(_ state: Int, for identifier: String, from manager: any LocationManaging) {
        guard manager === primary, let known = RegionState(coreLocationRegionState: state) else { return }
        deliver(.regionCrossing(id: identifier, state: known))
    }

    /// `locationManager(_:monitoringDidFailFor:withError:)`: the OS could not monitor a region (too many
    /// regions, too large a radius, monitoring unavailable).
    public func monitoringDidFail(_ identifier: String?, error: String, from manager: any LocationManaging) {
        guard manager === primary else { return }
        deliver(
            .regionMonitoringFailed(
                id: identifier,
                LocationServiceFailure(
                    source: "CoreLocation region \(identifier ?? "(unknown)")", problem: error,
                    fix: "the region is not watched by the OS until the next plan; its crossings are found from fixes meanwhile")))
    }

    /// The failure reported when CoreLocation's authorization values are ones the core does not know.
    static func authorizationFailure(_ problem: ValidationError) -> LocationServiceFailure {
        LocationServiceFailure(source: "CoreLocation authorization", problem: "\(problem)", fix: "the previous authorization is kept")
    }
}
