import Foundation
import Whereabouts
import WhereaboutsCore

/// The travel app's background task on BGTaskScheduler: an app-refresh task whose run is
/// ``Whereabouts/LocationEngine/backgroundRefresh(until:)``. With tracking on, a run takes one fix,
/// records it and uploads what is pending (renewing the upload credential when it has expired); with
/// tracking off, it exits at once and a line is logged.
///
/// Wiring, all in `application(_:didFinishLaunchingWithOptions:)`:
///
/// ```swift
/// let refresh = BackgroundRefreshTask(identifier: "com.example.app.refresh", engine: engine)
/// refresh.register()          // before didFinishLaunching returns
/// try? refresh.schedule()     // the first request; every run schedules the next
/// ```
///
/// The identifier must be listed under `BGTaskSchedulerPermittedIdentifiers` in Info.plist, and
/// `UIBackgroundModes` must contain `fetch`; without them (``WhereaboutsCore/AppSetup/allowsRefresh(_:)``)
/// nothing is registered or submitted (iOS would end the app) and one line is logged. The system decides
/// when a run happens (``interval`` is only the earliest begin date) and ends it through the expiration
/// handler, which cancels the run and reports it unsuccessful.
public final class BackgroundRefreshTask: Sendable {
    /// The task identifier, as listed under `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// Seconds from a request to the earliest moment the system may start the run.
    public let interval: TimeInterval
    /// Seconds a run gives the engine to take a fix and upload. App-refresh runs are short (commonly
    /// about 30 seconds; Apple does not document the number), and the system cuts a longer run off
    /// through the expiration handler.
    public let runDuration: TimeInterval
    private let engine: LocationEngine
    private let scheduler: any TaskScheduling
    private let permitted: Bool
    private let log: AdapterLog

    /// Creates the task on any scheduler; apps use the convenience initializer on `BGTaskScheduler`.
    /// - Parameters:
    ///   - identifier: the identifier listed under `BGTaskSchedulerPermittedIdentifiers`.
    ///   - engine: the engine whose ``Whereabouts/LocationEngine/backgroundRefresh(until:)`` a run calls.
    ///   - scheduler: the task scheduler.
    ///   - setup: what the app's Info.plist declares.
    ///   - interval: the earliest begin date of each request, in seconds from the request; 15 minutes by
    ///     default.
    ///   - runDuration: the deadline of each run, in seconds from its start; 25 seconds by default.
    ///   - log: where runs are logged.
    public init(
        identifier: String, engine: LocationEngine, scheduler: any TaskScheduling, setup: AppSetup, interval: TimeInterval = 15 * 60,
        runDuration: TimeInterval = 25, log: AdapterLog = .system
    ) {
        self.identifier = identifier
        self.engine = engine
        self.scheduler = scheduler
        self.permitted = setup.allowsRefresh(identifier)
        self.interval = interval
        self.runDuration = runDuration
        self.log = log
    }

    /// Registers the launch handler. Call it once per process, before
    /// `application(_:didFinishLaunchingWithOptions:)` returns: BGTaskScheduler accepts neither a second
    /// registration of an identifier nor one made after launching has finished.
    /// - Returns: `false` when the Info.plist does not permit the task (nothing is registered) or the
    ///   system refused the registration.
    @discardableResult
    public func register() -> Bool {
        guard permitted else {
            log(
                .background, .error,
                "background refresh is off: Info.plist must list '\(identifier)' under BGTaskSchedulerPermittedIdentifiers and 'fetch' "
                    + "under UIBackgroundModes")
            return false
        }
        return scheduler.register(identifier: identifier) { [self] task in run(task) }
    }

    /// Asks for the next run, no earlier than ``interval`` seconds from now. A request still waiting is
    /// replaced.
    /// - Throws: ``RefreshNotPermitted`` when the Info.plist does not permit the task; the scheduler's
    ///   error, for example when Background App Refresh is off for the app or the app runs in the Simulator.
    public func schedule() throws {
        guard permitted else { throw RefreshNotPermitted(identifier: identifier) }
        try scheduler.submitRefresh(identifier: identifier, earliestBegin: Date(timeIntervalSinceNow: interval))
    }

    /// One run: schedules the next, then refreshes until the deadline or the expiration. Internal for
    /// ``AutomaticSetup``, which registers the identifier before the engine exists when the store cannot
    /// be opened yet.
    func run(_ task: any BackgroundTaskRun) {
        do {
            try schedule()
        } catch {
            log(.background, .error, "the next refresh could not be scheduled: \(error)")
        }
        let current = BackgroundRun(task, log: log)
        task.setExpirationHandler { current.expire() }
        let deadline = Date(timeIntervalSinceNow: runDuration)
        current.start { [engine] in await engine.backgroundRefresh(until: deadline) }
    }
}

/// The refresh task's identifier is not permitted by the app's Info.plist.
public struct RefreshNotPermitted: Error, CustomStringConvertible {
    /// The task identifier.
    public let identifier: String
    /// What is wrong and the fix.
    public var description: String {
        "the refresh task '\(identifier)' is not scheduled: list it under BGTaskSchedulerPermittedIdentifiers and add 'fetch' to "
            + "UIBackgroundModes in Info.plist"
    }
}

/// One BGTask run: completes the task exactly once, successfully when the engine's refresh returned,
/// unsuccessfully when the system expired the run first.
private final class BackgroundRun: @unchecked Sendable {
    private let task: any BackgroundTaskRun
    private let log: AdapterLog
    private let lock = NSLock()
    private var completed = false
    private var work: Task<Void, Never>?

    init(_ task: any BackgroundTaskRun, log: AdapterLog) {
        self.task = task
        self.log = log
    }

    /// Starts the refresh.
    func start(_ refresh: @escaping @Sendable () async -> BackgroundRefreshOutcome) {
        let work = Task { [self] in
            switch await refresh() {
            case .trackingDisabled:
                log(.background, .notice, "refresh skipped: tracking is off")
            case .ran(let fix, let delivered, let stillPending):
                log(
                    .background, .notice,
                    "refresh ran: fix \(fix == nil ? "none" : "taken"), \(delivered) delivered, \(stillPending) still pending")
            }
            complete(success: true)
        }
        lock.withLock { self.work = work }
    }

    /// The system is ending the run: cancel it and report it unsuccessful.
    func expire() {
        lock.withLock { work }?.cancel()
        log(.background, .notice, "refresh expired before it finished")
        complete(success: false)
    }

    private func complete(success: Bool) {
        let first = lock.withLock {
            defer { completed = true }
            return !completed
        }
        if first { task.setTaskCompleted(success: success) }
    }
}
