import Foundation
import WhereaboutsCore

/// The port through which the engine takes positions from a platform: CoreLocation on iOS, gpsd on
/// Linux, the simulated phone in tests. The service does I/O only; every decision (what to ask for,
/// which regions to monitor, when to ask for permission) comes from the core through the engine.
///
/// Calls are made from the engine's actor, in the order the Tracker's effects ask for them. They are
/// synchronous so that order holds: a service that must do slow work (a socket write, a hop to the
/// main thread) queues it in order and returns at once; what comes of it arrives on ``events``.
public protocol LocationService: AnyObject, Sendable {
    /// The service's reports, in order. The stream is created once and finishes when the service
    /// is shut down.
    var events: AsyncStream<LocationServiceEvent> { get }
    /// The current authorization.
    func authorization() -> PlatformAuthorization
    /// Applies a configuration: standard updates at an accuracy and distance filter, significant
    /// changes, or everything off (`LocationRequest/off`).
    func configure(_ request: LocationRequest)
    /// Takes one position at the given accuracy and reports it as a ``LocationServiceEvent/fix(_:)``.
    func requestOneShot(_ accuracy: LocationAccuracy)
    /// Monitors exactly these OS regions, replacing the previous set.
    func monitor(_ regions: [MonitoredRegion])
    /// Shows the OS's permission dialog for `kind` (a no-op where there is no permission model).
    func requestAuthorization(_ kind: PermissionKind)
    /// Opens the app's page in the system settings, the only way back once the OS stops asking.
    func openSettings()
    /// What the app's set-up lacks, and so what the service leaves off (iOS: the Info.plist keys of
    /// `AppSetup`). Empty by default.
    var setupProblems: [SetupProblem] { get }
}

extension LocationService {
    /// Nothing is missing: services without an app set-up (gpsd, the simulated phone) need none.
    public var setupProblems: [SetupProblem] { [] }
}
