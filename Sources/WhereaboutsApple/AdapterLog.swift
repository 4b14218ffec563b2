#if canImport(CoreLocation) && canImport(os)
    import os

    /// The adapter's unified-logging categories (subsystem `whereabouts`), readable in Console.app and
    /// with `log stream --predicate 'subsystem == "whereabouts"'`.
    enum AdapterLog {
        /// Launches and relaunches.
        static let launch = Logger(subsystem: "whereabouts", category: "launch")
        /// The BGTaskScheduler refresh task.
        static let background = Logger(subsystem: "whereabouts", category: "background")
        /// The background URLSession transport.
        static let upload = Logger(subsystem: "whereabouts", category: "upload")
        /// Local notifications on region events.
        static let notifications = Logger(subsystem: "whereabouts", category: "notifications")
    }
#endif
