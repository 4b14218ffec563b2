import Foundation

/// CoreLocation's numbers, so that the mapping functions can be tested on Linux and the iOS adapter
/// can compare its values against them.
///
/// Sources. Apple's reference pages name the cases but not their numbers; the numbers come from
/// bindings that mirror the SDK headers:
/// - `CLAuthorizationStatus` (`Int32`, Apple: `init?(rawValue: Int32)`): Microsoft's .NET for iOS
///   reference "CLAuthorizationStatus Enum" (NotDetermined 0, Restricted 1, Denied 2,
///   AuthorizedAlways 3, AuthorizedWhenInUse 4) and the header `CLLocationManager.h`
///   (`kCLAuthorizationStatusNotDetermined = 0`, then in declaration order).
/// - `CLAccuracyAuthorization` (`Int`): Point-Free's ComposableCoreLocation `AccuracyAuthorization`
///   (fullAccuracy 0, reducedAccuracy 1) and Transistor Software's `AccuracyAuthorization`
///   ("Mirrors iOS CLAccuracyAuthorization": Full 0, Reduced 1).
/// - `CLRegionState` (`Int`, `@frozen`): Microsoft's .NET for iOS reference "CLRegionState Enum"
///   (Unknown 0, Inside 1, Outside 2) and objc2-core-location's generated `CLRegion.rs`.
/// - `CLLocationAccuracy` constants and `kCLDistanceFilterNone`: the values reimplementations of
///   CoreLocation define for compatibility (BestForNavigation −2, Best −1, NearestTenMeters 10,
///   HundredMeters 100, Kilometer 1000, ThreeKilometers 3000, DistanceFilterNone −1).
/// - The 20-region limit: Microsoft's .NET for iOS reference "CLLocationManager.StartMonitoring"
///   ("An application may monitor up to 20 uniquely-named … regions") and this project's
///   `design/reference.md`. The ~100 m reliability floor: Adobe's Places FAQ ("geofences should have
///   a radius of at least 100 m" for iOS and Android) and Kevin McMahon's notes from Apple's WWDC 2012
///   Core Location lab ("The minimum region radius size is 100m").
public enum CoreLocationConstants {
    /// `CLAuthorizationStatus.notDetermined`: the user has not chosen yet.
    public static let authorizationNotDetermined: Int32 = 0
    /// `CLAuthorizationStatus.restricted`: a policy forbids location; the user cannot change it.
    public static let authorizationRestricted: Int32 = 1
    /// `CLAuthorizationStatus.denied`: the user refused, or Location Services are off device-wide.
    public static let authorizationDenied: Int32 = 2
    /// `CLAuthorizationStatus.authorizedAlways`: location at any time (also reported while Always is
    /// provisional).
    public static let authorizationAlways: Int32 = 3
    /// `CLAuthorizationStatus.authorizedWhenInUse`: location while the app is in use.
    public static let authorizationWhenInUse: Int32 = 4

    /// `CLAccuracyAuthorization.fullAccuracy`.
    public static let fullAccuracy = 0
    /// `CLAccuracyAuthorization.reducedAccuracy`: approximate positions (1–20 km, a few an hour).
    public static let reducedAccuracy = 1

    /// `CLRegionState.unknown`.
    public static let regionStateUnknown = 0
    /// `CLRegionState.inside`.
    public static let regionStateInside = 1
    /// `CLRegionState.outside`.
    public static let regionStateOutside = 2

    /// `kCLLocationAccuracyBestForNavigation`, metres (a sentinel; Whereabouts does not ask for it).
    public static let accuracyBestForNavigation: Double = -2
    /// `kCLLocationAccuracyBest`, metres (a sentinel).
    public static let accuracyBest: Double = -1
    /// `kCLLocationAccuracyNearestTenMeters`, metres.
    public static let accuracyNearestTenMeters: Double = 10
    /// `kCLLocationAccuracyHundredMeters`, metres.
    public static let accuracyHundredMeters: Double = 100
    /// `kCLLocationAccuracyKilometer`, metres.
    public static let accuracyKilometer: Double = 1000
    /// `kCLLocationAccuracyThreeKilometers`, metres.
    public static let accuracyThreeKilometers: Double = 3000

    /// `kCLDistanceFilterNone`: deliver every fix, whatever the movement.
    public static let distanceFilterNone: Double = -1

    /// How many regions one app may monitor at once.
    public static let maximumMonitoredRegions = 20
    /// Radius in metres under which region crossings are unreliable (late or missing).
    public static let minimumReliableRegionRadius: Double = 100
    /// The value of `CLLocationManager.maximumRegionMonitoringDistance` when region monitoring is
    /// unavailable (Apple: "If region monitoring is unavailable or not supported, the value in this
    /// property is -1").
    public static let regionMonitoringUnavailable: Double = -1
}
