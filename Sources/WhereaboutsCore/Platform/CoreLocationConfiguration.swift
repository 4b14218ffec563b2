import Foundation

extension LocationAccuracy {
    /// The `CLLocationAccuracy` to assign to `CLLocationManager.desiredAccuracy`, in metres (negative
    /// values are CoreLocation's sentinels): best → `kCLLocationAccuracyBest` (−1), tenMeters →
    /// `kCLLocationAccuracyNearestTenMeters` (10), hundredMeters → `kCLLocationAccuracyHundredMeters`
    /// (100), kilometer → `kCLLocationAccuracyKilometer` (1000), threeKilometers →
    /// `kCLLocationAccuracyThreeKilometers` (3000). `kCLLocationAccuracyBestForNavigation` is never
    /// used: Apple reserves it for navigation while the device is plugged in.
    public var coreLocationDesiredAccuracy: Double {
        switch self {
        case .best: CoreLocationConstants.accuracyBest
        case .tenMeters: CoreLocationConstants.accuracyNearestTenMeters
        case .hundredMeters: CoreLocationConstants.accuracyHundredMeters
        case .kilometer: CoreLocationConstants.accuracyKilometer
        case .threeKilometers: CoreLocationConstants.accuracyThreeKilometers
        }
    }
}

extension StandardUpdates {
    /// The `CLLocationDistance` to assign to `CLLocationManager.distanceFilter`, in metres:
    /// ``distanceFilter`` when it is a positive finite number, else `kCLDistanceFilterNone` (−1),
    /// which delivers every fix.
    public var coreLocationDistanceFilter: Double {
        guard let distanceFilter, distanceFilter.isFinite, distanceFilter > 0 else { return CoreLocationConstants.distanceFilterNone }
        return distanceFilter
    }
}

/// Everything a `CLLocationManager` needs to carry out a ``LocationRequest``, decided here so the
/// adapter only assigns and starts.
public struct CoreLocationConfiguration: Sendable, Equatable {
    /// Whether standard updates run (`startUpdatingLocation()`), or are stopped (`stopUpdatingLocation()`).
    public let standardUpdates: Bool
    /// `desiredAccuracy` in metres for standard updates (see ``LocationAccuracy/coreLocationDesiredAccuracy``);
    /// `kCLLocationAccuracyThreeKilometers` while they are off, the cheapest setting.
    public let desiredAccuracy: Double
    /// `distanceFilter` in metres (see ``StandardUpdates/coreLocationDistanceFilter``);
    /// `kCLDistanceFilterNone` while standard updates are off.
    public let distanceFilter: Double
    /// Whether significant-change monitoring runs (`startMonitoringSignificantLocationChanges()`).
    public let significantChanges: Bool
    /// Whether visit monitoring runs (`startMonitoringVisits()`).
    public let visits: Bool
    /// Whether CoreMotion's activity updates run (`CMMotionActivityManager.startActivityUpdates`).
    public let motionActivity: Bool
    /// `allowsBackgroundLocationUpdates`: `true` while standard updates run and the app declares the
    /// `location` background mode. Standard updates need it to continue in the background; significant
    /// changes, regions and visits relaunch the app without it. Setting it without the
    /// `UIBackgroundModes` `location` entry in Info.plist raises `NSInternalInconsistencyException`
    /// (Apple, "allowsBackgroundLocationUpdates": apps that receive updates in the background "must
    /// include the UIBackgroundModes key (with the location value)"), hence the condition.
    public let allowsBackgroundLocationUpdates: Bool
    /// `pausesLocationUpdatesAutomatically`: always `false`. The engine's own policies turn updates off
    /// when the device is still; an automatic pause would stop them until the app restarts them itself,
    /// which a suspended app cannot do (Apple, "pausesLocationUpdatesAutomatically").
    public let pausesLocationUpdatesAutomatically: Bool

    /// The configuration for `request`.
    /// - Parameters:
    ///   - request: what the Tracker wants.
    ///   - backgroundModeDeclared: whether the app's Info.plist lists `location` under
    ///     `UIBackgroundModes`.
    public init(_ request: LocationRequest, backgroundModeDeclared: Bool) {
        standardUpdates = request.standard != nil
        desiredAccuracy = request.standard?.accuracy.coreLocationDesiredAccuracy ?? CoreLocationConstants.accuracyThreeKilometers
        distanceFilter = request.standard?.coreLocationDistanceFilter ?? CoreLocationConstants.distanceFilterNone
        significantChanges = request.significantChange
        visits = request.visits
        motionActivity = request.motionActivity
        allowsBackgroundLocationUpdates = request.standard != nil && backgroundModeDeclared
        pausesLocationUpdatesAutomatically = false
    }
}

extension MonitoredRegion {
    /// The `CLCircularRegion` parameters for this slot. The radius is clamped to
    /// `maximumRegionMonitoringDistance`, since a larger one fails with
    /// `CLError.regionMonitoringFailure` (Apple, "maximumRegionMonitoringDistance"). Radii under
    /// ``CoreLocationConstants/minimumReliableRegionRadius`` are passed unchanged: the OS accepts them
    /// but reports their crossings late, which the geofence engine allows for.
    ///
    /// - Parameter maximumRegionMonitoringDistance: `CLLocationManager.maximumRegionMonitoringDistance`, metres.
    /// - Throws: ``ValidationError`` when that distance is negative (−1: region monitoring is
    ///   unavailable on the device).
    public func coreLocationRegion(maximumRegionMonitoringDistance: Double) throws(ValidationError) -> CoreLocationRegion {
        guard maximumRegionMonitoringDistance.isFinite, maximumRegionMonitoringDistance > 0 else {
            throw ValidationError(
                field: "maximumRegionMonitoringDistance", value: "\(maximumRegionMonitoringDistance)",
                problem: "is not a positive number of metres: region monitoring is unavailable on this device",
                fix: "monitor no regions; keep standard or significant-change updates on so fixes drive the geofences")
        }
        return CoreLocationRegion(
            identifier: id, latitude: center.latitude, longitude: center.longitude, radius: min(radius, maximumRegionMonitoringDistance),
            notifyOnEntry: id != MonitoredRegion.refreshRegionID, notifyOnExit: true, requestsState: reportsState)
    }
}
