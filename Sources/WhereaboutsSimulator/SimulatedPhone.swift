import Foundation
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery

/// A simulated iPhone over a ground-truth path, as a ``LocationService`` for the ``LocationEngine``
/// apps run, with the clock that engine and its uploader share.
///
/// The phone behaves as `evaluation.md` describes: GPS acquisition, Wi-Fi and cell fixes, one-shots,
/// significant changes, visits, motion activity and 20 region slots with late crossings (the emulation of
/// ``RegionMonitorEmulation`` and ``SignificantChangeMonitor`` that the gpsd service shares), and
/// the background rule: the app runs while in the foreground, while standard updates are on, or for
/// 10 s after the OS wakes it for an event (a one-shot fix, a significant change, a region crossing).
/// A sleep that comes due while the app is suspended ends at the next wake.
///
/// Time is virtual: it moves only in ``advance(to:)``, one second at a time. The phone counts the
/// app's work (tasks started with the clock's `spawn`, sleeps, the engine waiting for its next event)
/// and hands the app each event, and each sleep that ends, only once the app is done with the one
/// before: so a run is the same for the same seed, and a ten-hour scenario plays in well under a second.
///
/// The phone outlives the app: ``kill()`` ends the app's event stream and stops standard updates, as
/// iOS does for a terminated app, but keeps region monitoring and significant changes, whose events
/// then wait for ``relaunch()`` (the OS relaunching the app in the background).
public final class SimulatedPhone: LocationService, @unchecked Sendable {
    /// Seconds the app keeps running after the OS wakes it.
    public static let wakeWindow: Double = 10
    /// Quiet seconds play without suspending; every this many the player yields to other tasks.
    private static let secondsBetweenYields = 64

    private let lock = NSLock()
    private let truth: TruthPath
    private var random: SeededGenerator
    private var location = SimulatedLocationService()
    private var regionMonitor = RegionMonitorEmulation()
    private let motion: SimulatedMotion
    private var visits = SimulatedVisits()
    /// Visits draw from a generator of their own, so that turning them on leaves every other draw of a
    /// run as it was (motion draws from one of its own too).
    private var visitRandom: SeededGenerator
    private static let motionSeed: UInt64 = 0x6D6F_7469_6F6E
    private static let visitSeed: UInt64 = 0x7669_7369_7473
    /// The activity reports made while the app was suspended, oldest first: it reads them when it next wakes.
    private var missedActivities: [MotionActivity] = []
    /// The second a process with motion activity on was terminated: the next process first reads the
    /// reports it missed, and those made since.
    private var motionMissedSince: Double?
    private var timelineRecords: [TimelineRecord] = []
    private var lags = UploadLags()
    private var second: Double
    /// The last second the phone has played; the first played is the path's start.
    private var played: Double
    private var foreground = false
    private var wakeUntil = -Double.infinity
    private var appRunning = false
    private var counters = SimulationDiagnostics()

    // The app process.
    private var alive = true
    private var generation = 0
    private var stream: AsyncStream<LocationServiceEvent>
    private var queue: [LocationServiceEvent] = []
    private var consumer: CheckedContinuation<LocationServiceEvent?, Never>?
    private var heldForLaunch: [LocationServiceEvent] = []
    private var currentAuthorization: PlatformAuthorization
    private var monitored: [MonitoredRegion] = []

    // The app's work, for the clock.
    private var active = 0
    private var sleepers: [Sleeper] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var nextSleeper = 0

    private struct Sleeper {
        let id: Int
        let deadline: Double
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Permission dialogs the engine asked for, in order.
    public private(set) var authorizationRequests: [PermissionKind] = []
    /// Times the engine opened the Settings app.
    public private(set) var settingsOpened = 0
    /// What the user answers to each permission dialog; `nil` leaves the dialog unanswered.
    public var answers: [PermissionKind: PlatformAuthorization] = [:]

    /// Creates a phone at the first second of `truth` with the given authorization. The app is in the
    /// background until ``setForeground(_:)``.
    public init(truth: TruthPath, seed: UInt64, authorization: PlatformAuthorization = .unrestricted) {
        self.truth = truth
        self.random = SeededGenerator(seed: seed)
        var motionRandom = SeededGenerator(seed: seed ^ Self.motionSeed)
        self.motion = SimulatedMotion(truth: truth, random: &motionRandom)
        self.visitRandom = SeededGenerator(seed: seed ^ Self.visitSeed)
        self.second = truth.start
        self.played = truth.start - 1
        self.currentAuthorization = authorization
        stream = AsyncStream { nil }
        stream = makeStream()
    }

    // MARK: The phone's side

    /// The current second, epoch seconds.
    public var now: Double { lock.withLock { second } }

    /// The clock the engine and its uploader must use: it reads the phone's second, its sleeps end
    /// when ``advance(to:)`` passes their deadline while the app runs, and it counts the tasks it
    /// starts.
    public var clock: EngineClock {
        EngineClock(
            now: { [unowned self] in Date(timeIntervalSince1970: now) },
            sleep: { [unowned self] deadline in try await sleep(until: deadline.timeIntervalSince1970) },
            spawn: { [unowned self] work in spawn(work) })
    }

    /// The regions the OS monitors now.
    public var monitoredRegions: [MonitoredRegion] { lock.withLock { monitored } }

    /// The energy timeline so far, uploads last within each second (``TimelineRecord/uploadsLast(_:)``):
    /// the uploader runs beside the engine and may record its request before or after what the engine
    /// asked for in the same second, and a seed must give the same file whatever the scheduling.
    public var timeline: [TimelineRecord] { TimelineRecord.uploadsLast(lock.withLock { timelineRecords }) }

    /// How late each upload so far carried what it carried.
    public var uploadLags: UploadLags { lock.withLock { lags } }

    /// Counters of what happened inside the phone.
    public var diagnostics: SimulationDiagnostics {
        lock.withLock {
            var copy = counters
            copy.slotOverflows = regionMonitor.overflows
            return copy
        }
    }

    /// Whether standard updates are on.
    public var standardUpdatesOn: Bool { lock.withLock { location.standardOn } }

    /// Whether events are waiting for the app to be relaunched.
    public var launchPending: Bool { lock.withLock { !heldForLaunch.isEmpty } }

    /// Brings the app to the foreground (it runs) or sends it to the background.
    public func setForeground(_ inForeground: Bool) {
        lock.withLock {
            foreground = inForeground
            updateAppState(at: second)
        }
    }

    /// Plays every second not played yet up to `t` (at most the end of the path; the first is the
    /// path's start, the second the phone was created at): the phone
    /// produces what the OS would deliver, hands it to the app, and ends the sleeps that come due
    /// while the app runs, each only once the app is done with the one before.
    public func advance(to t: Double) async {
        await idle()
        while let events = lock.withLock({ () -> [(event: LocationServiceEvent, waking: Bool)]? in
            guard played < min(t, truth.end) else { return nil }
            played += 1
            second = played
            return produce(at: second)
        }) {
            if Int(second) % Self.secondsBetweenYields == 0 { await Task.yield() }
            for (event, waking) in events {
                for admitted in lock.withLock({ admit(event, waking: waking) }) {
                    deliver(admitted)
                    await idle()
                }
            }
            while let sleeper = lock.withLock({ takeDueSleeper() }) {
                sleeper.continuation.resume()
                await idle()
            }
            lock.withLock { updateAppState(at: second) }
        }
    }

    /// Returns once the app has nothing left to do at the current second: every task it started has
    /// ended, sleeps until later or waits for the next event. Returns without suspending when it has
    /// nothing to do already.
    public func idle() async {
        guard lock.withLock({ active > 0 }) else { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if active == 0 { return true }
                idleWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// The app is terminated: its event stream ends, standard updates and motion activity stop;
    /// region monitoring, significant changes and visits go on and hold their events for
    /// ``relaunch()``. When motion activity was on, the next process reads the reports this one missed
    /// and those made meanwhile, as the iOS adapter does.
    public func kill() {
        let (ending, woken) = lock.withLock { () -> (CheckedContinuation<LocationServiceEvent?, Never>?, [Sleeper]) in
            alive = false
            generation += 1
            let kept = location.request
            if kept.motionActivity {
                motionMissedSince = second
                timelineRecords.append(.motion(t: second, on: false))
            } else {
                missedActivities.removeAll()
            }
            location.configure(LocationRequest(standard: nil, significantChange: kept.significantChange, visits: kept.visits), at: second)
            queue.removeAll()
            let ending = consumer
            consumer = nil
            if ending != nil { active += 1 }
            let woken = sleepers
            sleepers.removeAll()
            active += woken.count
            updateAppState(at: second)
            return (ending, woken)
        }
        ending?.resume(returning: nil)
        for sleeper in woken { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    /// The OS starts the app again: a new event stream, which first delivers what the new process reads
    /// of the motion history (``MotionActivity/forwardedAtWake(_:)`` of the reports missed since the
    /// last process, when it had motion activity on), then the events held since ``kill()``. Read
    /// ``events`` again after this.
    public func relaunch() {
        lock.withLock {
            alive = true
            stream = makeStream()
            var history: [MotionActivity] = []
            if let since = motionMissedSince {
                history = missedActivities + motion.reports.filter { $0.time > since && $0.time <= second }.map(\.activity)
                motionMissedSince = nil
                missedActivities = []
            }
            queue = MotionActivity.forwardedAtWake(history).map(LocationServiceEvent.activity) + heldForLaunch
            heldForLaunch.removeAll()
            wakeUntil = max(wakeUntil, second + Self.wakeWindow)
            updateAppState(at: second)
        }
    }

    /// The user changes the app's permission in Settings (or answers a dialog by other means).
    public func setAuthorization(_ authorization: PlatformAuthorization) {
        lock.withLock { currentAuthorization = authorization }
        deliver(.authorizationChanged(authorization))
    }

    /// An upload transport that records each request on the timeline (`network` `upload`, with its
    /// body's bytes) and in ``uploadLags`` at the phone's second, then sends it through `transport`.
    public func meteredTransport(_ transport: any HTTPTransport) -> any HTTPTransport {
        MeteredTransport(phone: self, inner: transport)
    }

    fileprivate func recordUpload(_ request: OutgoingRequest) {
        lock.withLock {
            timelineRecords.append(.upload(t: second, bytes: request.body.count))
            lags.note(request, at: second)
        }
    }

    // MARK: Inside the phone (called with the lock held)

    /// What the OS produces in second `t`, each event with whether it wakes the app.
    private func produce(at t: Double) -> [(event: LocationServiceEvent, waking: Bool)] {
        let fixes = location.step(at: t, truth: truth, random: &random, timeline: &timelineRecords)
        var events: [(LocationServiceEvent, Bool)] = []
        if let fix = fixes.standard { events.append((.fix(fix), false)) }
        if let fix = fixes.oneShot { events.append((.fix(fix), true)) }
        if let fix = fixes.significant { events.append((.fix(fix), true)) }
        let crossings = regionMonitor.step(
            at: Date(timeIntervalSince1970: t), position: truth.position(at: t), stateDelay: 1,
            latency: { random.uniform(20...180).rounded() })
        events += crossings.map { (.regionCrossing(id: $0.id, state: $0.state), true) }
        if location.request.visits {
            for visit in visits.step(at: t, position: truth.position(at: t), random: &visitRandom) {
                timelineRecords.append(.wifiScan(t: t))
                events.append((.visit(visit), true))
            }
        }
        if location.request.motionActivity {
            events += motion.reports(at: t).map { (.activity($0), false) }
        }
        for case (.fix(let fix), _) in events { counters.fixesDelivered[fix.source.rawValue, default: 0] += 1 }
        return events
    }

    private var isRunning: Bool { alive && (foreground || location.standardOn || second < wakeUntil) }

    /// What of `event` reaches the app now: a waking event wakes a suspended app (a dead one's waits
    /// for a relaunch when the OS would relaunch for it), after the activity reports made while it was
    /// suspended that the app's query of the motion history at the wake hands on
    /// (``MotionActivity/forwardedAtWake(_:)``);
    /// another event reaches a running app only, and an activity report made meanwhile waits for the
    /// next wake.
    private func admit(_ event: LocationServiceEvent, waking: Bool) -> [LocationServiceEvent] {
        guard waking else {
            if isRunning { return [event] }
            if case .activity(let activity) = event { missedActivities.append(activity) }
            return []
        }
        guard alive else { return [event] }
        if !isRunning {
            counters.wakes += 1
            timelineRecords.append(.wake(t: second))
        }
        wakeUntil = max(wakeUntil, second + Self.wakeWindow)
        updateAppState(at: second)
        defer { missedActivities = [] }
        guard location.request.motionActivity else { return [event] }
        return MotionActivity.forwardedAtWake(missedActivities).map(LocationServiceEvent.activity) + [event]
    }

    private func updateAppState(at t: Double) {
        guard isRunning != appRunning else { return }
        appRunning = isRunning
        timelineRecords.append(.app(t: t, state: appRunning ? .running : .suspended))
    }

    private func takeDueSleeper() -> Sleeper? {
        guard isRunning,
            let index = sleepers.indices.min(by: { (sleepers[$0].deadline, sleepers[$0].id) < (sleepers[$1].deadline, sleepers[$1].id) }),
            sleepers[index].deadline <= second
        else { return nil }
        let sleeper = sleepers.remove(at: index)
        counters.timersFired += 1
        if sleeper.deadline < second - 1 { counters.timersFiredLate += 1 }
        active += 1
        return sleeper
    }

    // MARK: Events to the app

    private func makeStream() -> AsyncStream<LocationServiceEvent> {
        let generation = generation
        return AsyncStream(unfolding: { [weak self] in await self?.nextEvent(generation: generation) })
    }

    /// The next event for the app process of `generation`, waiting (idle) while there is none.
    private func nextEvent(generation: Int) async -> LocationServiceEvent? {
        await withCheckedContinuation { (waiter: CheckedContinuation<LocationServiceEvent?, Never>) in
            let (ready, idleNow) = lock.withLock { () -> (LocationServiceEvent??, [CheckedContinuation<Void, Never>]) in
                guard alive, generation == self.generation else { return (.some(nil), []) }
                if !queue.isEmpty { return (.some(queue.removeFirst()), []) }
                consumer = waiter
                return (nil, becomeIdle())
            }
            for idle in idleNow { idle.resume() }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    private func deliver(_ event: LocationServiceEvent) {
        let waiting = lock.withLock { () -> CheckedContinuation<LocationServiceEvent?, Never>? in
            guard alive else {
                if Self.relaunchesTheApp(event) { heldForLaunch.append(event) }
                return nil
            }
            guard let waiting = consumer else {
                queue.append(event)
                return nil
            }
            consumer = nil
            active += 1
            return waiting
        }
        waiting?.resume(returning: event)
    }

    /// Whether the OS relaunches a terminated app for `event`: region crossings, significant changes
    /// and visits do; standard updates, one-shots and activity reports do not reach a dead app.
    private static func relaunchesTheApp(_ event: LocationServiceEvent) -> Bool {
        switch event {
        case .regionCrossing, .visit, .authorizationChanged: true
        case .fix(let fix): fix.source == .significantChange
        case .activity, .failure, .regionMonitoringFailed: false
        }
    }

    // MARK: The clock

    private func spawn(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        lock.withLock { active += 1 }
        return Task { [self] in
            await work()
            for idle in lock.withLock({ becomeIdle() }) { idle.resume() }
        }
    }

    /// One unit of work ends (a task, or a task going to sleep or waiting): the idle waiters to resume
    /// when it was the last.
    private func becomeIdle() -> [CheckedContinuation<Void, Never>] {
        active -= 1
        guard active == 0 else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }

    private func sleep(until deadline: Double) async throws {
        let id = lock.withLock { () -> Int in
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let (outcome, idleNow) = lock.withLock { () -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled || !alive { return (.failure(CancellationError()), []) }
                    if deadline <= second && isRunning { return (.success(()), []) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: waiter))
                    return (nil, becomeIdle())
                }
                for idle in idleNow { idle.resume() }
                if let outcome { waiter.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                active += 1
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    // MARK: LocationService

    public var events: AsyncStream<LocationServiceEvent> { lock.withLock { stream } }

    public func authorization() -> PlatformAuthorization { lock.withLock { currentAuthorization } }

    public func configure(_ request: LocationRequest) {
        let current = lock.withLock { () -> MotionActivity? in
            let sensing = location.request.motionActivity
            location.configure(request, at: second)
            updateAppState(at: second)
            guard request.motionActivity != sensing else { return nil }
            timelineRecords.append(.motion(t: second, on: request.motionActivity))
            return request.motionActivity ? motion.latest(by: second) : nil
        }
        if let current { deliver(.activity(current)) }
    }

    public func requestOneShot(_ accuracy: LocationAccuracy) {
        lock.withLock { location.requestOneShot(accuracy, at: second) }
    }

    public func monitor(_ regions: [MonitoredRegion]) {
        lock.withLock {
            monitored = regions
            regionMonitor.monitor(regions, at: Date(timeIntervalSince1970: second), position: truth.position(at: second), stateDelay: 1)
        }
    }

    public func requestAuthorization(_ kind: PermissionKind) {
        let answer = lock.withLock { () -> PlatformAuthorization? in
            authorizationRequests.append(kind)
            guard currentAuthorization.canPrompt, let answer = answers[kind] else { return nil }
            currentAuthorization = answer
            return answer
        }
        if let answer { deliver(.authorizationChanged(answer)) }
    }

    public func openSettings() {
        lock.withLock { settingsOpened += 1 }
    }
}

/// An ``HTTPTransport`` that puts each request on the phone's timeline before sending it.
private struct MeteredTransport: HTTPTransport {
    let phone: SimulatedPhone
    let inner: any HTTPTransport

    func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
        phone.recordUpload(request)
        return try await inner.send(request, timeout: timeout)
    }
}
