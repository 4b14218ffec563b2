import Foundation
import Whereabouts
import WhereaboutsCore

/// A `CMMotionActivity`'s values.
public struct ReportedActivity: Sendable, Equatable {
    /// `stationary`, `walking`, `running`, `cycling` and `automotive`.
    public var stationary, walking, running, cycling, automotive: Bool
    /// `confidence.rawValue` (0 low, 1 medium, 2 high).
    public var confidence: Int
    /// `startDate`.
    public var start: Date

    /// Creates an activity.
    public init(
        stationary: Bool = false, walking: Bool = false, running: Bool = false, cycling: Bool = false, automotive: Bool = false,
        confidence: Int = 2, start: Date
    ) {
        self.stationary = stationary
        self.walking = walking
        self.running = running
        self.cycling = cycling
        self.automotive = automotive
        self.confidence = confidence
        self.start = start
    }
}

/// The part of `CMMotionActivityManager` the adapter uses (`AppleMotionActivity.swift` adopts it on iOS).
public protocol MotionActivityManaging: AnyObject, Sendable {
    /// `CMMotionActivityManager.isActivityAvailable()`: whether the device has a motion coprocessor.
    var isActivityAvailable: Bool { get }
    /// `startActivityUpdates(to:withHandler:)`: reports the activity known now, then each change.
    func startActivityUpdates(_ handler: @escaping @Sendable (ReportedActivity) -> Void)
    /// `stopActivityUpdates()`.
    func stopActivityUpdates()
}

/// CoreMotion's activity updates, reported to the engine as ``Whereabouts/LocationServiceEvent/activity(_:)``
/// while the Tracker asks for them. Runs only when the app declares `NSMotionUsageDescription` (iOS ends
/// an app that starts activity updates without it) and the device has a motion coprocessor; otherwise
/// nothing is reported and the adaptive mode judges stops from positions alone.
final class MotionActivityReceiver: @unchecked Sendable {
    private let manager: (any MotionActivityManaging)?
    private let continuation: AsyncStream<LocationServiceEvent>.Continuation
    private let lock = NSLock()
    private var running = false

    /// - Parameter manager: the motion manager, or `nil` where the app may not use motion.
    init(manager: (any MotionActivityManaging)?, continuation: AsyncStream<LocationServiceEvent>.Continuation) {
        self.manager = manager
        self.continuation = continuation
    }

    /// Starts or stops the updates; starting reports the activity CoreMotion knows now, then each change.
    func set(on: Bool) {
        guard let manager, manager.isActivityAvailable else { return }
        let changed = lock.withLock {
            defer { running = on }
            return on != running
        }
        guard changed else { return }
        guard on else {
            manager.stopActivityUpdates()
            return
        }
        let continuation = continuation
        manager.startActivityUpdates { activity in
            guard
                let report = MotionActivity.fromCoreMotion(
                    stationary: activity.stationary, walking: activity.walking, running: activity.running, cycling: activity.cycling,
                    automotive: activity.automotive, confidence: activity.confidence, start: activity.start)
            else { return }
            continuation.yield(.activity(report))
        }
    }
}
