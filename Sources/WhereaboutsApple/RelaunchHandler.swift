#if canImport(CoreLocation) && canImport(UIKit) && canImport(os)
    import Foundation
    import UIKit
    import Whereabouts
    import WhereaboutsCore
    import os

    /// Starts the engine from `application(_:didFinishLaunchingWithOptions:)`, telling a relaunch by the
    /// OS for a location event (a region crossing, a significant change or a visit, even after the app
    /// was killed) from a launch by the user.
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
    /// off, a relaunch for a location event logs a line and starts nothing. The
    /// ``CoreLocationService`` must already exist when this is called (create both before
    /// `application(_:didFinishLaunchingWithOptions:)` returns), so that the event that woke the app is
    /// delivered to it.
    ///
    /// Apps on the scene life cycle may be launched for a location event without the `location` launch
    /// option; such a launch reads as ``WhereaboutsCore/LaunchReason/user``, which restarts tracking and asks
    /// for a fix just the same when tracking is on.
    public struct RelaunchHandler: Sendable {
        /// The engine to launch.
        public let engine: LocationEngine

        /// Creates a handler for `engine`.
        public init(engine: LocationEngine) { self.engine = engine }

        /// Why the process started: ``WhereaboutsCore/LaunchReason/locationEvent`` when `launchOptions` holds
        /// `UIApplication.LaunchOptionsKey.location`, else ``WhereaboutsCore/LaunchReason/user``.
        @MainActor
        public static func reason(launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> LaunchReason {
            launchOptions?[.location] != nil ? .locationEvent : .user
        }

        /// Launches the engine for the reason in `launchOptions`, without blocking the launch.
        /// - Returns: the task running the launch; its value is the engine's outcome, or `nil` when the
        ///   store could not be read (the error is logged).
        @MainActor
        @discardableResult
        public func applicationDidFinishLaunching(launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Task<LaunchOutcome?, Never> {
            let reason = Self.reason(launchOptions: launchOptions)
            return Task { [engine] in
                do {
                    return try await engine.launch(reason)
                } catch {
                    AdapterLog.launch.error(
                        "the \(reason.rawValue, privacy: .public) launch failed: \(String(describing: error), privacy: .public)")
                    return nil
                }
            }
        }
    }
#endif
