import Foundation
import WhereaboutsCore

/// The part of `CLLocationManager` the adapter uses, in CoreLocation's own names and units, so that the
/// adapter's logic compiles and is tested on Linux. `CLLocationManager` adopts it in a few lines
/// (`AppleLocationManager.swift`); tests adopt it with a manager that behaves as iOS does.
///
/// Regions are described by ``WhereaboutsCore/CoreLocationRegion`` (a `CLCircularRegion`'s parameters);
/// the OS keeps them across launches and shares them between every manager of the app.
@MainActor
public protocol LocationManaging: AnyObject {
    /// `authorizationStatus.rawValue` (``WhereaboutsCore/CoreLocationConstants``).
    var authorizationStatusCode: Int32 { get }
    /// `accuracyAuthorization.rawValue`.
    var accuracyAuthorizationCode: Int { get }
    /// `desiredAccuracy`, in metres or CoreLocation's negative sentinels.
    var desiredAccuracy: Double { get set }
    /// `distanceFilter`, in metres (`kCLDistanceFilterNone` is −1).
    var distanceFilter: Double { get set }
    /// `pausesLocationUpdatesAutomatically`.
    var pausesLocationUpdatesAutomatically: Bool { get set }
    /// `allowsBackgroundLocationUpdates`; setting it without the `location` background mode ends the app.
    var allowsBackgroundLocationUpdates: Bool { get set }
    /// `showsBackgroundLocationIndicator`.
    var showsBackgroundLocationIndicator: Bool { get set }
    /// `maximumRegionMonitoringDistance`: the largest radius a region may have.
    var maximumRegionMonitoringDistance: Double { get }
    /// `monitoredRegions`, by identifier: each circle's parameters, or `nil` for a region that is not a
    /// circle (a beacon region). `requestsState` is always `false`: the OS keeps no such flag.
    var monitoredCircles: [String: CoreLocationRegion?] { get }

    /// `startUpdatingLocation()`.
    func startUpdatingLocation()
    /// `stopUpdatingLocation()`.
    func stopUpdatingLocation()
    /// `startMonitoringSignificantLocationChanges()`.
    func startMonitoringSignificantLocationChanges()
    /// `stopMonitoringSignificantLocationChanges()`.
    func stopMonitoringSignificantLocationChanges()
    /// `startMonitoringVisits()`.
    func startMonitoringVisits()
    /// `stopMonitoringVisits()`.
    func stopMonitoringVisits()
    /// `startMonitoring(for:)` with a `CLCircularRegion` of these parameters.
    func startMonitoring(circle: CoreLocationRegion)
    /// `stopMonitoring(for:)` of the monitored region with this identifier.
    func stopMonitoring(identifier: String)
    /// `requestState(for:)` of the monitored region with this identifier.
    func requestState(identifier: String)
    /// `requestLocation()`: one fix, delivered to this manager's delegate.
    func requestLocation()
    /// `requestWhenInUseAuthorization()`.
    func requestWhenInUseAuthorization()
    /// `requestAlwaysAuthorization()`.
    func requestAlwaysAuthorization()
}
