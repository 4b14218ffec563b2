#if os(iOS)
    import BackgroundTasks
    import Foundation
    import Whereabouts
    import WhereaboutsCore

    /// `BGTaskScheduler.shared` as a ``TaskScheduling``.
    struct SystemTaskScheduler: TaskScheduling {
        func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTaskRun) -> Void) -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                launchHandler(SystemTaskRun(task: task))
            }
        }

        func submitRefresh(identifier: String, earliestBegin: Date) throws {
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            request.earliestBeginDate = earliestBegin
            try BGTaskScheduler.shared.submit(request)
        }
    }

    /// A `BGTask` as a ``BackgroundTaskRun``; the system calls its handlers on any thread.
    final class SystemTaskRun: BackgroundTaskRun, @unchecked Sendable {
        private let task: BGTask

        init(task: BGTask) { self.task = task }

        func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) { task.expirationHandler = handler }

        func setTaskCompleted(success: Bool) { task.setTaskCompleted(success: success) }
    }

    extension BackgroundRefreshTask {
        /// Creates the task on `BGTaskScheduler`, reading the app's set-up from `bundle`'s Info.plist.
        /// - Parameters:
        ///   - identifier: the identifier listed under `BGTaskSchedulerPermittedIdentifiers`.
        ///   - engine: the engine whose ``Whereabouts/LocationEngine/backgroundRefresh(until:)`` a run calls.
        ///   - interval: the earliest begin date of each request, in seconds from the request.
        ///   - runDuration: the deadline of each run, in seconds from its start.
        ///   - bundle: the app's bundle.
        public convenience init(
            identifier: String, engine: LocationEngine, interval: TimeInterval = 15 * 60, runDuration: TimeInterval = 25,
            bundle: Bundle = .main
        ) {
            self.init(
                identifier: identifier, engine: engine, scheduler: SystemTaskScheduler(), setup: AppSetup(bundle: bundle),
                interval: interval, runDuration: runDuration)
        }
    }
#endif
