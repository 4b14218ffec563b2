import Foundation

/// The part of `BGTaskScheduler` the refresh task uses (`AppleBackgroundTasks.swift` adopts it on iOS).
public protocol TaskScheduling: Sendable {
    /// `register(forTaskWithIdentifier:using:launchHandler:)` with a nil queue; `false` when refused.
    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTaskRun) -> Void) -> Bool
    /// `submit(_:)` of a `BGAppRefreshTaskRequest` for `identifier` no earlier than `earliestBegin`.
    func submitRefresh(identifier: String, earliestBegin: Date) throws
}

/// The part of a `BGTask` a run uses.
public protocol BackgroundTaskRun: AnyObject, Sendable {
    /// `expirationHandler`: called by the system when the run's time is up.
    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void)
    /// `setTaskCompleted(success:)`.
    func setTaskCompleted(success: Bool)
}
