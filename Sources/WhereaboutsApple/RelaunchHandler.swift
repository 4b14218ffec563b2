import Foundation
import Whereabouts
import WhereaboutsCore

/// Starts the engine when the app launches, telling a relaunch by the OS for a location event (a region
/// crossing, a significant change or a visit, even after the app was killed) from a launch by the user.
///
/// ```swift
/// func application(_ application: UIApplication,
///                  didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
///     RelaunchHandler(engine: engine).applicationDidFinishLaunching(launchOptions: launchOptions)
///     return true
/// }
/// ```
///
/// The engine does the rest in ``Whereabouts/LocationEngine/launch(_:)``: it restores itself from the
/// store and, with tracking on, restarts the location service and asks for a fresh fix; with tracking
/// off, a relaunch for a location event logs a line and starts nothing. The ``CoreLocationService`` must
/// already exist when this is called (create both before `application(_:didFinishLaunchingWithOptions:)`
/// returns), so that the event that woke the app is delivered to its delegate.
///
/// Apps on the scene life cycle may be launched for a location event without the `location` launch
/// option; such a launch reads as ``WhereaboutsCore/LaunchReason/user``, which restarts tracking and asks
/// for a fix just the same when tracking is on.
public struct RelaunchHandler: Sendable {
    /// The launch option UIKit sets when the OS launched the app for a location event
    /// (`UIApplication.LaunchOptionsKey.location`, whose symbol iOS 26 deprecates; its value is unchanged).
    public static let locationLaunchOptionKey = "UIApplicationLaunchOptionsLocationKey"

    /// The engine to launch.
    public let engine: LocationEngine
    private let log: AdapterLog

    /// Creates a handler for `engine`.
    public init(engine: LocationEngine, log: AdapterLog = .system) {
        self.engine = engine
        self.log = log
    }

    /// Why the process started: ``WhereaboutsCore/LaunchReason/locationEvent`` when the launch options'
    /// keys hold ``locationLaunchOptionKey``, else ``WhereaboutsCore/LaunchReason/user``.
    public static func reason(launchOptionKeys: some Sequence<String>) -> LaunchReason {
        launchOptionKeys.contains(locationLaunchOptionKey) ? .locationEvent : .user
    }

    /// Launches the engine for `reason`, without blocking the launch.
    /// - Returns: the task running the launch; its value is the engine's outcome, or `nil` when the
    ///   store could not be read (the error is logged).
    @discardableResult
    public func launch(_ reason: LaunchReason) -> Task<LaunchOutcome?, Never> {
        Task { [engine, log] in
            do {
                let outcome = try await engine.launch(reason)
                log(.launch, .notice, "\(reason.rawValue) launch: \(outcome)")
                return outcome
            } catch {
                log(.launch, .error, "the \(reason.rawValue) launch failed: \(error)")
                return nil
            }
        }
    }
}
