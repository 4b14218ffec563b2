import Foundation

#if canImport(os)
    import os
#else
    import Logging
#endif

/// Where the adapter logs. On Apple platforms ``system`` writes to unified logging (subsystem
/// `whereabouts`, readable in Console.app and with `log stream --predicate 'subsystem == "whereabouts"'`);
/// elsewhere to swift-log. Tests pass their own to read what was logged.
public struct AdapterLog: Sendable {
    /// What a line is about: the unified-logging category.
    public enum Category: String, Sendable, CaseIterable {
        /// Launches, relaunches and the app's set-up.
        case launch
        /// The BGTaskScheduler refresh task.
        case background
        /// The background URLSession transport.
        case upload
        /// Local notifications on region events.
        case notifications
        /// CoreLocation and CoreMotion.
        case location
    }

    /// How much a line matters.
    public enum Level: String, Sendable {
        /// Worth keeping: what ran and what was skipped.
        case notice
        /// Something failed or is missing.
        case error
    }

    /// One logged line.
    public struct Line: Sendable, Equatable {
        /// What it is about.
        public let category: Category
        /// How much it matters.
        public let level: Level
        /// The text.
        public let message: String
    }

    private let write: @Sendable (Line) -> Void

    /// A log that hands each line to `write`.
    public init(_ write: @escaping @Sendable (Line) -> Void) { self.write = write }

    /// Logs `message` under `category`.
    public func callAsFunction(_ category: Category, _ level: Level, _ message: String) {
        write(Line(category: category, level: level, message: message))
    }

    /// The platform's log: unified logging on Apple platforms, swift-log elsewhere.
    public static let system = AdapterLog { line in
        #if canImport(os)
            let logger = os.Logger(subsystem: "whereabouts", category: line.category.rawValue)
            switch line.level {
            case .notice: logger.notice("\(line.message, privacy: .public)")
            case .error: logger.error("\(line.message, privacy: .public)")
            }
        #else
            let logger = Logging.Logger(label: "whereabouts.\(line.category.rawValue)")
            switch line.level {
            case .notice: logger.notice("\(line.message)")
            case .error: logger.error("\(line.message)")
            }
        #endif
    }
}
