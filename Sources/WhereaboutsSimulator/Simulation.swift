import Foundation
import WhereaboutsCore

/// Counters of what happened inside the simulated phone, for reports and tests.
public struct SimulationDiagnostics: Sendable, Equatable, Codable {
    /// Fixes handed to the Tracker, by source.
    public var fixesDelivered: [String: Int] = [:]
    /// Times the OS woke the suspended app.
    public var wakes = 0
    /// Timers that fired.
    public var timersFired = 0
    /// Timers that came due while the app was suspended and fired at the next wake.
    public var timersFiredLate = 0
    /// Times the Tracker asked the OS to monitor more regions than it has slots.
    public var slotOverflows = 0
}

/// What a simulated run produced.
public struct SimulationOutcome: Sendable {
    /// Events, records and the energy timeline.
    public let run: SimulationRun
    /// Counters from inside the phone.
    public let diagnostics: SimulationDiagnostics
}

/// Sees each effect the Tracker asks of the simulated phone.
public typealias EffectObserver = @Sendable (TrackerEffect) -> Void

/// A Tracker running on a simulated iPhone over a ground-truth path, second by second.
///
/// At the first second the app is in the foreground and tracking starts; it goes to the background
/// after `foregroundSeconds`. From then on the app runs only while standard updates are on or for
/// 10 s after the OS wakes it (a region crossing, a significant change, a one-shot fix); timers due
/// while it is suspended fire at the next wake. Everything random comes from the seed.
public struct Simulation: Sendable {
    /// Seconds the app keeps running after the OS wakes it.
    public static let wakeWindow: Double = 10

    private let truth: TruthPath
    private let regions: [Region]
    private let configuration: TrackerConfiguration
    private let seed: UInt64
    private let foregroundSeconds: Double
    private let observer: EffectObserver?

    /// Creates a simulation; call ``run()`` to play it. `observer` sees every effect the Tracker asks
    /// for, in order, as the simulated phone performs it (to record into a real store, for instance).
    public init(
        truth: TruthPath, regions: [Region], configuration: TrackerConfiguration, seed: UInt64,
        foregroundSeconds: Double = 10, observer: EffectObserver? = nil
    ) {
        self.observer = observer
        self.truth = truth
        self.regions = regions
        self.configuration = configuration
        self.seed = seed
        self.foregroundSeconds = foregroundSeconds
    }

    /// Plays the whole path and returns what the engine did.
    public func run() -> SimulationOutcome {
        var state = SimulationState(truth: truth, configuration: configuration, regions: regions, seed: seed)
        state.observer = observer
        let start = truth.start
        state.foregroundUntil = start + foregroundSeconds
        state.timeline.append(.app(t: start, state: .running))
        state.appRunning = true
        state.deliver(.lifecycle(.foreground), at: start)
        state.deliver(.command(.start), at: start)
        var t = start
        while t <= truth.end {
            if t == state.foregroundUntil { state.deliver(.lifecycle(.background), at: t) }
            state.step(at: t)
            t += 1
        }
        return SimulationOutcome(
            run: SimulationRun(events: state.events, fixes: state.fixes, timeline: state.timeline),
            diagnostics: state.diagnostics)
    }
}

/// The mutable state of one simulated run.
struct SimulationState {
    let truth: TruthPath
    var tracker: Tracker
    var random: SeededGenerator
    var location = SimulatedLocationService()
    var monitor = SimulatedRegionMonitor()
    var timers: [TimerID: Double] = [:]
    var foregroundUntil = 0.0
    var wakeUntil = -Double.infinity
    var appRunning = false
    var events: [RegionEvent] = []
    var fixes: [StoredFix] = []
    var timeline: [TimelineRecord] = []
    var diagnostics = SimulationDiagnostics()
    var observer: EffectObserver?
    private var pendingUpload: Set<Int> = []

    init(truth: TruthPath, configuration: TrackerConfiguration, regions: [Region], seed: UInt64) {
        self.truth = truth
        self.tracker = Tracker(configuration: configuration, regions: regions)
        self.random = SeededGenerator(seed: seed)
    }

    var isRunning: Bool { location.standardOn || currentTime < wakeUntil || currentTime < foregroundUntil }
    private var currentTime = 0.0

    /// One second of the run: the phone produces inputs, the Tracker handles them, due timers fire.
    mutating func step(at t: Double) {
        currentTime = t
        let produced = location.step(at: t, truth: truth, random: &random, timeline: &timeline)
        if let fix = produced.standard { deliverFix(fix, waking: false, at: t) }
        if let fix = produced.oneShot { deliverFix(fix, waking: true, at: t) }
        if let fix = produced.significant { deliverFix(fix, waking: true, at: t) }
        for crossing in monitor.step(at: t, truth: truth, random: &random) { wakeAndDeliver(crossing, at: t) }
        fireDueTimers(at: t)
        updateAppState(at: t)
    }

    private mutating func deliverFix(_ fix: Fix, waking: Bool, at t: Double) {
        diagnostics.fixesDelivered[fix.source.rawValue, default: 0] += 1
        if waking {
            wakeAndDeliver(.fix(fix), at: t)
        } else if isRunning {
            deliver(.fix(fix), at: t)
        }
    }

    private mutating func wakeAndDeliver(_ input: TrackerInput, at t: Double) {
        if !isRunning {
            diagnostics.wakes += 1
            timeline.append(.wake(t: t))
            updateAppState(at: t, forceRunning: true)
        }
        wakeUntil = max(wakeUntil, t + Simulation.wakeWindow)
        deliver(input, at: t)
        fireDueTimers(at: t)
    }

    /// Hands one input to the Tracker and performs the effects.
    mutating func deliver(_ input: TrackerInput, at t: Double) {
        currentTime = t
        for effect in tracker.handle(input, now: Date(timeIntervalSince1970: t)) { perform(effect, at: t) }
    }

    private mutating func fireDueTimers(at t: Double) {
        guard isRunning else { return }
        var guardCount = 0
        while let (id, due) = timers.filter({ $0.value <= t }).min(by: { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }),
            guardCount < 100
        {
            guardCount += 1
            timers[id] = nil
            diagnostics.timersFired += 1
            if due < t - 1 { diagnostics.timersFiredLate += 1 }
            deliver(.timer(id), at: t)
        }
    }

    private mutating func updateAppState(at t: Double, forceRunning: Bool = false) {
        let running = forceRunning || isRunning
        guard running != appRunning else { return }
        appRunning = running
        timeline.append(.app(t: t, state: running ? .running : .suspended))
    }

    private mutating func perform(_ effect: TrackerEffect, at t: Double) {
        observer?(effect)
        switch effect {
        case .configureLocation(let request): location.configure(request, at: t)
        case .requestOneShot(let accuracy): location.requestOneShot(accuracy, at: t)
        case .monitor(let regions):
            monitor.monitor(regions, at: t, truth: truth)
            diagnostics.slotOverflows = monitor.overflows
        case .scheduleTimer(let id, let date): timers[id] = date.timeIntervalSince1970.rounded(.up)
        case .cancelTimer(let id): timers[id] = nil
        case .record(let record):
            fixes.append(StoredFix(fix: record.fix, dwell: 0))
            pendingUpload.insert(fixes.count - 1)
        case .extendDwell(let dwell, _):
            guard !fixes.isEmpty else { return }
            fixes[fixes.count - 1].dwell = dwell
            pendingUpload.insert(fixes.count - 1)
        case .emit(let event): events.append(event)
        case .flushUploads:
            guard !pendingUpload.isEmpty else { return }
            timeline.append(.upload(t: t, bytes: 400 + 180 * pendingUpload.count))
            pendingUpload.removeAll()
        }
    }
}
