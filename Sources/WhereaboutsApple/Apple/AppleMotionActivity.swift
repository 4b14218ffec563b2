#if os(iOS)
    import CoreMotion
    import Foundation

    /// CoreMotion's activity manager as a ``MotionActivityManaging``.
    final class CoreMotionActivity: MotionActivityManaging, @unchecked Sendable {
        private let manager = CMMotionActivityManager()
        private let queue = OperationQueue()

        private init() { queue.maxConcurrentOperationCount = 1 }

        /// The manager, or `nil` where the device has no motion coprocessor.
        static func make() -> CoreMotionActivity? {
            CMMotionActivityManager.isActivityAvailable() ? CoreMotionActivity() : nil
        }

        var isActivityAvailable: Bool { CMMotionActivityManager.isActivityAvailable() }

        func startActivityUpdates(_ handler: @escaping @Sendable (ReportedActivity) -> Void) {
            manager.startActivityUpdates(to: queue) { activity in
                guard let activity else { return }
                handler(
                    ReportedActivity(
                        stationary: activity.stationary, walking: activity.walking, running: activity.running, cycling: activity.cycling,
                        automotive: activity.automotive, confidence: activity.confidence.rawValue, start: activity.startDate))
            }
        }

        func stopActivityUpdates() { manager.stopActivityUpdates() }
    }
#endif
