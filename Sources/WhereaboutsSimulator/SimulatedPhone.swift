import Foundation
import Whereabouts
import WhereaboutsCore

/// The simulated iPhone as a ``LocationService`` for a ``LocationEngine``: the same iOS-like
/// positioning and region monitoring as ``Simulation`` (GPS acquisition, Wi-Fi and cell fixes,
/// one-shots, significant changes, 20 region slots with late crossings) over a ground-truth path,
/// driven by hand one second at a time, with a clock the engine shares.
///
/// The phone outlives the app: ``kill()`` ends the app's event stream and stops standard updates,
/// as iOS does for a terminated app, but keeps region monitoring and significant changes, whose
/// events then wait for ``relaunch()`` (the OS relaunching the app in the background).
public final class SimulatedPhone: LocationService, @unchecked Sendable {
    private let lock = NSLock()
    private let truth: TruthPath
    private var random: SeededGenerator
    private var location = SimulatedLocationService()
    private var regionMonitor = SimulatedRegionMonitor()
    private var timelineRecords: [TimelineRecord] = []
    private var second: Double
    private var sleepers: [(deadline: Double, continuation: CheckedContinuation<Void, any Error>)] = []
    private var stream: AsyncStream<LocationServiceEvent>
    private var continuation: AsyncStream<LocationServiceEvent>.Continuation
    private var alive = true
    private var heldForLaunch: [LocationServiceEvent] = []
    private var currentAuthorization: PlatformAuthorization
    private var monitored: [MonitoredRegion] = []

    /// Events yielded to the current app process.
    public private(set) var yielded = 0
    /// Sleeps of the shared clock that ended, for the current app process.
    public private(set) var wakeups = 0
    /// Permission dialogs the engine asked for, in order.
    public private(set) var authorizationRequests: [PermissionKind] = []
    /// Times the engine opened the Settings app.
    public private(set) var settingsOpened = 0
    /// What the user answers to each permission dialog; `nil` leaves the dialog unanswered.
    public var answers: [PermissionKind: PlatformAuthorization] = [:]

    /// Creates a phone at the first second of `truth` with the given authorization.
    public init(truth: TruthPath, seed: UInt64, authorization: PlatformAuthorization = .unrestricted) {
        self.truth = truth
        self.random = SeededGenerator(seed: seed)
        self.second = truth.start
        self.currentAuthorization = authorization
        (stream, continuation) = AsyncStream.makeStream(of: LocationServiceEvent.self)
    }

    // MARK: The phone's side

    /// The current second, epoch seconds.
    public var now: Double { lock.withLock { second } }

    /// The clock the engine must use: it reads the phone's second, and its sleeps end when
    /// ``advance(to:)`` passes their deadline.
    public var clock: EngineClock {
        EngineClock(
            now: { Date(timeIntervalSince1970: self.now) },
            sleep: { deadline in try await self.sleep(until: deadline.timeIntervalSince1970) })
    }

    /// The regions the OS monitors now.
    public var monitoredRegions: [MonitoredRegion] { lock.withLock { monitored } }

    /// The energy timeline so far (GPS states, Wi-Fi scans, cell fixes).
    public var timeline: [TimelineRecord] { lock.withLock { timelineRecords } }

    /// Whether standard updates are on.
    public var standardUpdatesOn: Bool { lock.withLock { location.standardOn } }

    /// Whether events are waiting for the app to be relaunched.
    public var launchPending: Bool { lock.withLock { !heldForLaunch.isEmpty } }

    /// Plays every second after the current one up to `t`, yielding what the phone produces and
    /// ending the clock's sleeps that come due.
    public func advance(to t: Double) {
        while let step = lock.withLock({ () -> (events: [LocationServiceEvent], woken: [CheckedContinuation<Void, any Error>])? in
            guard second < min(t, truth.end) else { return nil }
            second += 1
            return (produce(at: second), wakeDue(at: second))
        }) {
            for event in step.events { deliver(event) }
            for sleeper in step.woken { sleeper.resume() }
        }
    }

    /// The app is terminated: its stream ends, standard updates stop; region monitoring and
    /// significant changes go on and hold their events for ``relaunch()``.
    public func kill() {
        let woken = lock.withLock {
            alive = false
            location.configure(LocationRequest(standard: nil, significantChange: location.request.significantChange), at: second)
            continuation.finish()
            defer { sleepers.removeAll() }
            return sleepers.map(\.continuation)
        }
        for sleeper in woken { sleeper.resume(throwing: CancellationError()) }
    }

    /// The OS starts the app again: a new event stream, which first delivers the events held since
    /// ``kill()``. Read ``events`` again after this.
    public func relaunch() {
        lock.withLock {
            (stream, continuation) = AsyncStream.makeStream(of: LocationServiceEvent.self)
            alive = true
            yielded = 0
            wakeups = 0
        }
        for event in lock.withLock({ defer { heldForLaunch.removeAll() }; return heldForLaunch }) { deliver(event) }
    }

    /// The user changes the app's permission in Settings (or answers a dialog by other means).
    public func setAuthorization(_ authorization: PlatformAuthorization) {
        lock.withLock { currentAuthorization = authorization }
        deliver(.authorizationChanged(authorization))
    }

    private func deliver(_ event: LocationServiceEvent) {
        let yield = lock.withLock { () -> AsyncStream<LocationServiceEvent>.Continuation? in
            guard alive else {
                if case .fix(let fix) = event, fix.source != .significantChange { return nil }
                heldForLaunch.append(event)
                return nil
            }
            yielded += 1
            return continuation
        }
        yield?.yield(event)
    }

    private func produce(at t: Double) -> [LocationServiceEvent] {
        let fixes = location.step(at: t, truth: truth, random: &random, timeline: &timelineRecords)
        var events = [fixes.standard, fixes.oneShot, fixes.significant].compactMap { $0 }.map(LocationServiceEvent.fix)
        for crossing in regionMonitor.step(at: t, truth: truth, random: &random) {
            if case .regionCrossing(let id, let state) = crossing { events.append(.regionCrossing(id: id, state: state)) }
        }
        return events
    }

    private func wakeDue(at t: Double) -> [CheckedContinuation<Void, any Error>] {
        let due = sleepers.filter { $0.deadline <= t }
        sleepers.removeAll { $0.deadline <= t }
        wakeups += due.count
        return due.map(\.continuation)
    }

    private func sleep(until deadline: Double) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let immediate = lock.withLock { () -> Bool in
                if deadline <= second {
                    wakeups += 1
                    return true
                }
                sleepers.append((deadline, waiter))
                return false
            }
            if immediate { waiter.resume() }
        }
    }

    // MARK: LocationService

    public var events: AsyncStream<LocationServiceEvent> { lock.withLock { stream } }

    public func authorization() -> PlatformAuthorization { lock.withLock { currentAuthorization } }

    public func configure(_ request: LocationRequest) {
        lock.withLock { location.configure(request, at: second) }
    }

    public func requestOneShot(_ accuracy: LocationAccuracy) {
        lock.withLock { location.requestOneShot(accuracy, at: second) }
    }

    public func monitor(_ regions: [MonitoredRegion]) {
        lock.withLock {
            monitored = regions
            regionMonitor.monitor(regions, at: second, truth: truth)
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
