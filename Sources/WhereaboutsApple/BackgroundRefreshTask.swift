#if canImport(BackgroundTasks) && canImport(CoreLocation) && canImport(os)
    import BackgroundTasks
    import Foundation
    import Whereabouts
    import os

    /// The travel app's background task on BGTaskScheduler: an app-refresh task whose run is
    /// ``Whereabouts/LocationEngine/backgroundRefresh(until:)``. With tracking on, a run takes one fix,
    /// records it and uploads what is pending (renewing the upload credential when it has expired); with
    /// tracking off, it exits at once and the engine logs a line.
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
    /// `UIBackgroundModes` must contain `fetch`. The system decides when a run happens
    /// (``interval`` is only the earliest begin date) and ends it through the expiration handler, which
    /// cancels the run and reports it unsuccessful.
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

        /// Creates the task.
        /// - Parameters:
        ///   - identifier: the identifier listed under `BGTaskSchedulerPermittedIdentifiers`.
        ///   - engine: the engine whose ``Whereabouts/LocationEngine/backgroundRefresh(until:)`` a run calls.
        ///   - interval: the earliest begin date of each request, in seconds from the request; 15 minutes by
        ///     default.
        ///   - runDuration: the deadline of each run, in seconds from its start; 25 seconds by default.
        public init(identifier: String, engine: LocationEngine, interval: TimeInterval = 15 * 60, runDuration: TimeInterval = 25) {
            self.identifier = identifier
            self.engine = engine
            self.interval = interval
            self.runDuration = runDuration
        }

        /// Registers the launch handler (`BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)`).
        /// Call it once per process, before `application(_:didFinishLaunchingWithOptions:)` returns:
        /// BGTaskScheduler accepts neither a second registration of an identifier nor one made after
        /// launching has finished.
        /// - Returns: `false` when the system refused the registration, for example because the identifier
        ///   is not listed under `BGTaskSchedulerPermittedIdentifiers`.
        @discardableResult
        public func register() -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { [self] task in
                run(task)
            }
        }

        /// Asks for the next run: a `BGAppRefreshTaskRequest` no earlier than ``interval`` seconds from
        /// now. A request still waiting is replaced.
        /// - Throws: the scheduler's error, for example when Background App Refresh is off for the app or
        ///   the app runs in the Simulator.
        public func schedule() throws {
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
            try BGTaskScheduler.shared.submit(request)
        }

        /// One run: schedules the next, then refreshes until the deadline or the expiration.
        private func run(_ task: BGTask) {
            do {
                try schedule()
            } catch {
                AdapterLog.background.error("the next refresh could not be scheduled: \(String(describing: error), privacy: .public)")
            }
            let current = BackgroundRun(task)
            task.expirationHandler = { current.expire() }
            let deadline = Date(timeIntervalSinceNow: runDuration)
            current.start { [engine] in await engine.backgroundRefresh(until: deadline) }
        }
    }

    /// One BGTask run: completes the task exactly once, successfully when the engine's refresh returned,
    /// unsuccessfully when the system expired the run first.
    private final class BackgroundRun: @unchecked Sendable {
        private let task: BGTask
        private let lock = NSLock()
        private var completed = false
        private var work: Task<Void, Never>?

        init(_ task: BGTask) { self.task = task }

        /// Starts the refresh.
        func start(_ refresh: @escaping @Sendable () async -> BackgroundRefreshOutcome) {
            let work = Task { [self] in
                switch await refresh() {
                case .trackingDisabled:
                    AdapterLog.background.notice("refresh skipped: tracking is off")
                case .ran(let fix, let delivered, let stillPending):
                    AdapterLog.background.notice(
                        "refresh ran: fix \(fix == nil ? "none" : "taken", privacy: .public), \(delivered) delivered, \(stillPending) still pending"
                    )
                }
                complete(success: true)
            }
            lock.lock()
            self.work = work
            lock.unlock()
        }

        /// The system is ending the run: cancel it and report it unsuccessful.
        func expire() {
            lock.lock()
            let work = work
            lock.unlock()
            work?.cancel()
            AdapterLog.background.notice("refresh expired before it finished")
            complete(success: false)
        }

        private func complete(success: Bool) {
            lock.lock()
            let first = !completed
            completed = true
            lock.unlock()
            if first { task.setTaskCompleted(success: success) }
        }
    }
#endif
