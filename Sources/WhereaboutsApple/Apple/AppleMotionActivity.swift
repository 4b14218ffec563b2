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

        var isAuthorized: Bool { CMMotionActivityManager.authorizationStatus() == .authorized }

        func startActivityUpdates(_ handler: @escaping @Sendable (ReportedActivity) -> Void) {
            manager.startActivityUpdates(to: queue) { activity in
                guard let activity else { return }
                handler(Self.reported(activity))
            }
        }

        func stopActivityUpdates() { manager.stopActivityUpdates() }

        func queryActivities(from start: Date, to end: Date, _ handler: @escaping @Sendable ([ReportedActivity]) -> Void) {
            manager.queryActivityStarting(from: start, to: end, to: queue) { activities, _ in
                handler((activities ?? []).map(Self.reported))
            }
        }

        private static func reported(_ activity: CMMotionActivity) -> ReportedActivity {
            ReportedActivity(
                stationary: activity.stationary, walking: activity.walking, running: activity.running, cycling: activity.cycling,
                automotive: activity.automotive, confidence: activity.confidence.rawValue, start: activity.startDate)
        }
    }
#endif
