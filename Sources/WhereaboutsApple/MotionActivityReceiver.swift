#if canImport(CoreMotion)
    import CoreMotion
    import Foundation
    import WhereaboutsCore

    /// CoreMotion's activity updates, reported to the engine as ``LocationServiceEvent/activity(_:)``
    /// while the Tracker asks for them. Needs `NSMotionUsageDescription` in the app's Info.plist; where
    /// activity is unavailable (no motion coprocessor) nothing is reported and the adaptive mode assumes
    /// the top speed of a vehicle.
    final class MotionActivityReceiver: @unchecked Sendable {
        private let manager = CMMotionActivityManager()
        private let queue = OperationQueue()
        private let continuation: AsyncStream<LocationServiceEvent>.Continuation
        private let lock = NSLock()
        private var running = false

        init(continuation: AsyncStream<LocationServiceEvent>.Continuation) {
            self.continuation = continuation
            queue.maxConcurrentOperationCount = 1
        }

        /// Starts or stops the updates; starting reports the activity CoreMotion knows now, then each change.
        func set(on: Bool) {
            guard CMMotionActivityManager.isActivityAvailable() else { return }
            lock.lock()
            defer { lock.unlock() }
            guard on != running else { return }
            running = on
            guard on else {
                manager.stopActivityUpdates()
                return
            }
            let continuation = continuation
            manager.startActivityUpdates(to: queue) { activity in
                guard let activity,
                    let report = MotionActivity.fromCoreMotion(
                        stationary: activity.stationary, walking: activity.walking, running: activity.running,
                        cycling: activity.cycling, automotive: activity.automotive, confidence: activity.confidence.rawValue,
                        start: activity.startDate)
                else { return }
                continuation.yield(.activity(report))
            }
        }
    }
#endif
