import Foundation
import WhereaboutsApple
import WhereaboutsCore

/// Every line the adapter logged.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [AdapterLog.Line] = []

    var log: AdapterLog { AdapterLog { [self] line in lock.withLock { lines.append(line) } } }
    var all: [AdapterLog.Line] { lock.withLock { lines } }

    func messages(_ category: AdapterLog.Category) -> [String] { all.filter { $0.category == category }.map(\.message) }
}

/// `UNUserNotificationCenter` as iOS runs it: the dialog's answer comes when the user gives it
/// (``answer(_:)``), and every posted request is kept.
actor RecordingNotificationCenter: NotificationCentering {
    struct Posted: Equatable {
        let identifier: String
        let title: String
        let category: String
    }

    private(set) var posted: [Posted] = []
    private(set) var categories: [String: [RegionNotificationSettings.Action]] = [:]
    private(set) var asked = 0
    private var waiting: [CheckedContinuation<Bool, Never>] = []
    private var answer: Bool?

    init(answer: Bool? = true) { self.answer = answer }

    func requestAlertAuthorization() async throws -> Bool {
        asked += 1
        if let answer { return answer }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// The user answers the dialog.
    func answer(_ allowed: Bool) {
        answer = allowed
        for continuation in waiting { continuation.resume(returning: allowed) }
        waiting = []
    }

    func setCategory(_ identifier: String, actions: [RegionNotificationSettings.Action]) async { categories[identifier] = actions }

    func post(identifier: String, title: String, body: String, threadIdentifier: String, categoryIdentifier: String) async throws {
        posted.append(Posted(identifier: identifier, title: title, category: categoryIdentifier))
    }
}

/// `BGTaskScheduler` as iOS runs it: a registered handler is called when the system decides to run the
/// task (``run(_:)``), and it refuses an identifier registered twice.
final class RecordingScheduler: TaskScheduling, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [String: @Sendable (any BackgroundTaskRun) -> Void] = [:]
    private(set) var submitted: [String] = []

    var registered: [String] { lock.withLock { Array(handlers.keys) } }
    var submissions: [String] { lock.withLock { submitted } }

    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTaskRun) -> Void) -> Bool {
        lock.withLock {
            guard handlers[identifier] == nil else { return false }
            handlers[identifier] = launchHandler
            return true
        }
    }

    func submitRefresh(identifier: String, earliestBegin: Date) throws {
        lock.withLock { submitted.append(identifier) }
    }

    /// The system starts a run of `identifier`'s task.
    func run(_ identifier: String) -> RecordingTaskRun {
        let run = RecordingTaskRun()
        lock.withLock { handlers[identifier] }?(run)
        return run
    }
}

/// One `BGTask` run: its completion, and the system's expiration.
final class RecordingTaskRun: BackgroundTaskRun, @unchecked Sendable {
    private let lock = NSLock()
    private var expiration: (@Sendable () -> Void)?
    private var completions: [Bool] = []

    var completed: [Bool] { lock.withLock { completions } }

    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) { lock.withLock { expiration = handler } }
    func setTaskCompleted(success: Bool) { lock.withLock { completions.append(success) } }

    /// The system's time for the run is up.
    func expire() { lock.withLock { expiration }?() }
}

/// The latest value handed over from any thread.
final class Latest<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}
