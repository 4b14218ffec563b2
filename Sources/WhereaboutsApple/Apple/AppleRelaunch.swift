#if os(iOS)
    import Foundation
    import UIKit
    import Whereabouts
    import WhereaboutsCore

    extension RelaunchHandler {
        /// Why the process started, from `application(_:didFinishLaunchingWithOptions:)`'s options.
        @MainActor
        public static func reason(launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> LaunchReason {
            reason(launchOptionKeys: (launchOptions ?? [:]).keys.map(\.rawValue))
        }

        /// Launches the engine for the reason in `launchOptions`, without blocking the launch.
        /// - Returns: the task running the launch; its value is the engine's outcome, or `nil` when the
        ///   store could not be read (the error is logged).
        @MainActor
        @discardableResult
        public func applicationDidFinishLaunching(launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Task<LaunchOutcome?, Never> {
            launch(Self.reason(launchOptions: launchOptions))
        }
    }
#endif
