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
    /// `queryActivityStarting(from:to:to:withHandler:)`: the activities recorded from `start` to `end`,
    /// oldest first; none when the query fails.
    func queryActivities(from start: Date, to end: Date, _ handler: @escaping @Sendable ([ReportedActivity]) -> Void)
    /// `CMMotionActivityManager.authorizationStatus() == .authorized`: whether the user allowed motion
    /// data, so that reading the history at launch cannot make iOS ask.
    var isAuthorized: Bool { get }
}

extension MotionActivityManaging {
    /// Authorized unless told otherwise.
    public var isAuthorized: Bool { true }
}

/// CoreMotion's activity updates, reported to the engine as ``Whereabouts/LocationServiceEvent/activity(_:)``
/// while the Tracker asks for them. Runs only when the app declares `NSMotionUsageDescription` (iOS ends
/// an app that starts activity updates without it) and the device has a motion coprocessor; otherwise
/// nothing is reported and the adaptive mode judges stops from positions alone.
///
/// A suspended app gets no updates. So every location event passes through ``deliver(_:)``: when motion
/// activity is on and nothing has been delivered for ``suspensionGap`` seconds (the app may have been
/// suspended), it first reads CoreMotion's history since that last delivered event and hands on what
/// ``WhereaboutsCore/MotionActivity/forwardedAtWake(_:)`` keeps, then the event. The engine then learns
/// that a still device set off, and when, before the event the OS woke the app for. Events that arrive
/// while the history is read wait behind it, in order, for ``readLimit`` seconds at most.
///
/// A process iOS terminated does not learn what the motion coprocessor recorded after its last event
/// either. So while motion activity is on, the time of the last delivered event is kept in
/// `UserDefaults` (at most ``markInterval`` seconds behind); the next process (relaunched for a
/// region crossing, a visit or a significant change, or opened by the user) reads the history since
/// then as it starts, as far back as CoreMotion keeps it, and the events the OS brings wait behind it.
final class MotionActivityReceiver: @unchecked Sendable {
    /// Seconds without a delivered event after which the app may have been suspended: iOS suspends a
    /// background app that gets no updates within about ten seconds of an event.
    static let suspensionGap: TimeInterval = 10
    /// Seconds the events wait for the history at most: a read that has not answered by then is
    /// given up, and the events go on without it.
    static let readLimit: TimeInterval = 2
    /// The `UserDefaults` key of the last delivered event's time, for the next process.
    static let markKey = "WhereaboutsMotionDeliveredUntil"
    /// Seconds the kept time may lag the last delivered event: it is written at most this often. An
    /// older time only makes the next process read a little more history.
    static let markInterval: TimeInterval = 5
    /// Seconds of history CoreMotion keeps (seven days): a read reaches no further back.
    static let historyKept: TimeInterval = 7 * 24 * 3_600

    private let manager: (any MotionActivityManaging)?
    private let continuation: AsyncStream<LocationServiceEvent>.Continuation
    private let defaults: UserDefaults
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var running = false
    /// When an event was last delivered.
    private var lastDelivered: Date?
    /// The time last written to ``markKey``.
    private var lastMark: Date?
    /// The last report handed on, live or from the history.
    private var lastReport: MotionActivity?
    /// Events waiting for the history being read; `nil` when none is being read.
    private var waiting: [LocationServiceEvent]?
    /// Counts the reads started, so that only the read under way (or its time limit) ends the wait.
    private var reads = 0

    /// - Parameters:
    ///   - manager: the motion manager, or `nil` where the app may not use motion.
    ///   - defaults: where the last delivered event's time is kept for the next process.
    ///   - now: the clock.
    init(
        manager: (any MotionActivityManaging)?, continuation: AsyncStream<LocationServiceEvent>.Continuation,
        defaults: UserDefaults, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.manager = manager
        self.continuation = continuation
        self.defaults = defaults
        self.now = now
        guard let manager, manager.isActivityAvailable, manager.isAuthorized, let mark = defaults.object(forKey: Self.markKey) as? Date
        else { return }
        let time = now()
        guard time.timeIntervalSince(mark) > Self.suspensionGap else { return }
        let read = lock.withLock {
            lastDelivered = time
            return startRead(since: max(mark, time - Self.historyKept))
        }
        defaults.set(time, forKey: Self.markKey)
        self.read(read, until: time)
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
        manager.startActivityUpdates { [weak self] activity in
            guard let self, let report = Self.activity(activity) else { return }
            lock.withLock { hand(.activity(report)) }
        }
    }

    /// Hands `event`, a location event, to the engine: after the motion history missed while the app
    /// may have been suspended, when motion activity is on.
    func deliver(_ event: LocationServiceEvent) {
        let time = now()
        let (read, mark): ((since: Date, number: Int)?, Bool) = lock.withLock {
            defer { lastDelivered = time }
            let mark = running && (lastMark.map { time.timeIntervalSince($0) >= Self.markInterval } ?? true)
            if mark { lastMark = time }
            guard waiting == nil, running, let last = lastDelivered, time.timeIntervalSince(last) > Self.suspensionGap else {
                hand(event)
                return (nil, mark)
            }
            let read = startRead(since: last)
            waiting?.append(event)
            return (read, mark)
        }
        if mark { defaults.set(time, forKey: Self.markKey) }
        if let read { self.read(read, until: time) }
    }

    /// Starts holding events back for a read of the history since `since`, and numbers the read.
    /// Called under the lock.
    private func startRead(since: Date) -> (since: Date, number: Int) {
        waiting = []
        reads += 1
        return (since, reads)
    }

    /// Reads the history from `read.since` to `end`, then catches up; gives the read up after
    /// ``readLimit`` seconds.
    private func read(_ read: (since: Date, number: Int), until end: Date) {
        guard let manager else { return }
        manager.queryActivities(from: read.since, to: end) { [weak self] activities in
            self?.catchUp(activities.compactMap(Self.activity), since: read.since, read: read.number)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.readLimit) { [weak self] in
            self?.catchUp([], since: read.since, read: read.number)
        }
    }

    /// Hands on what the history since `since` (the last delivered event: until then the app ran and
    /// got each report live) says, then the events that waited for it; does nothing once `read` no
    /// longer holds them (answered, or given up).
    private func catchUp(_ history: [MotionActivity], since: Date, read: Int) {
        lock.withLock {
            guard read == reads, waiting != nil else { return }
            let missed = history.filter { $0.start >= since }
            let queued = waiting ?? []
            waiting = nil
            for report in MotionActivity.forwardedAtWake(missed) { hand(.activity(report)) }
            for event in queued { hand(event) }
        }
    }

    /// Hands `event` on, or queues it while the history is read; an activity report that repeats the
    /// last one handed on is dropped. Called under the lock.
    private func hand(_ event: LocationServiceEvent) {
        if waiting != nil {
            waiting?.append(event)
            return
        }
        if case .activity(let report) = event {
            guard report != lastReport else { return }
            lastReport = report
        }
        continuation.yield(event)
    }

    private static func activity(_ activity: ReportedActivity) -> MotionActivity? {
        MotionActivity.fromCoreMotion(
            stationary: activity.stationary, walking: activity.walking, running: activity.running, cycling: activity.cycling,
            automotive: activity.automotive, confidence: activity.confidence, start: activity.start)
    }
}
