import Foundation

/// The pure tracking state machine: `(input, now) → [effect]`.
///
/// The Tracker owns no clock and performs no I/O. A shell (the simulator, CoreLocation, gpsd) feeds
/// it inputs with the time they happened and performs the effects it returns, in order. Regions are
/// watched in every mode: fixes are judged against all of them, and the nearest are handed to the OS
/// with a refresh region around the device.
public struct Tracker: Sendable {
    /// The configuration in force (its mode changes with ``TrackerCommand/setMode(_:)``).
    public internal(set) var configuration: TrackerConfiguration
    /// Whether tracking is on.
    public internal(set) var isRunning = false
    /// The regions and the device's state in each.
    public internal(set) var geofences: GeofenceEngine
    /// The slots handed to the OS, once a position was known.
    public internal(set) var slotPlan: SlotPlan?
    /// Whether the OS reports the crossings of the regions it is handed whatever the app is doing
    /// (``PlatformAuthorization/monitorsRegions``; the session sets it from each authorization it
    /// learns, and a service without a permission model counts as one that does). A policy leaves
    /// regions to the OS (``MotionPolicy/osTrustRadius``) only while it does.
    public internal(set) var osMonitorsRegions = true
    /// The regions the OS said it could not monitor since the slots were last handed to it; `nil`
    /// stands for one it did not name, and so for every region. None of them is left to the OS.
    var unmonitored: Set<String?> = []
    /// The regions handed as they are (``MonitoredRegion/reportsState``) whose state the OS has not
    /// answered since: its next report for one is that answer, the side of the outline the device is
    /// on, not a crossing (``SlotPlanner/circle(for:state:cushion:device:handed:)``).
    var statesAsked: Set<String> = []
    /// The last fix that passed the filter.
    public internal(set) var lastFix: Fix?
    /// The last recorded fix, whose dwell time grows while the device stays.
    public internal(set) var lastRecord: Fix?
    /// Counters of what the Tracker dropped, for reports and logs.
    public internal(set) var statistics = TrackerStatistics()
    /// Whether the stop-detecting modes consider the device still.
    public internal(set) var motion: MotionState = .moving(anchor: nil)
    /// The motion coprocessor's latest report, if motion activity is on and has reported.
    public internal(set) var activity: MotionActivity?
    /// Whether the app is in the foreground (``AppLifecycle/foreground`` until ``AppLifecycle/background``
    /// or a launch by the OS): interval mode asks for its foreground displacement then.
    public internal(set) var inForeground = false
    /// When the Tracker last asked the platform for positions (a configuration other than off, or a
    /// one-shot), or `nil` if it never did.
    public internal(set) var lastTriedAt: Date?
    /// When the slots were last handed to the OS.
    public internal(set) var fencePlannedAt: Date?
    /// The Tracker's timers and when each comes due. Due timers fire at the start of the next
    /// ``handle(_:now:)``, whatever its input: a shell wakes the Tracker at ``nextDeadline`` with
    /// ``TrackerInput/wake``, and a timer that came due while the app was suspended fires with the
    /// first input after it resumes.
    public internal(set) var timers: [TimerID: Date] = [:]

    var activeTracking: (previous: TrackingMode, end: Date)?
    var appliedRequest: LocationRequest?
    var recordNextFix: RecordTrigger?
    var recordsSinceFlush = 0
    var lastFlush: Date?
    var deferredFlush: FlushReason?
    var raisedAccuracyUntil: Date?
    /// The time of the last input, to see the clock set back (``followClock(to:into:)``).
    var lastNow: Date?
    /// Whether a fix fine enough to decide regions on its own was taken since the moving anchor was set.
    var fineFixAtAnchor = false
    /// While set, every region boundary is out of reach and the adaptive policy cruises.
    var clearance: Clearance?
    /// The stay at ``lastRecord``: the last moment something showed the device there, the dwell last
    /// handed to the store, and whether the stay still lasts (nothing has shown the device left).
    var stay = Stay.none
    /// The run of fixes that judged regions, which tells whether they could have seen a crossing the OS reports.
    var fixWatch = FixWatch()
    /// The line through the last GPS fixes, where a mode that streams GPS judges regions.
    var fixLine = FixLine()

    /// Creates a stopped tracker watching `regions` (a later duplicate id replaces an earlier one).
    public init(configuration: TrackerConfiguration, regions: [Region] = []) {
        self.configuration = configuration
        self.geofences = GeofenceEngine(regions: regions)
    }

    /// The mode in force, which differs from the configured one during active tracking.
    public var mode: TrackingMode { configuration.mode }

    /// The mode the app configured: the one in force, or during active tracking the one it returns to.
    public var configuredMode: TrackingMode { activeTracking?.previous ?? configuration.mode }

    /// Whether the device is judged still with positioning off (the stop-detecting modes).
    var isStationary: Bool {
        if case .stationary = motion { true } else { false }
    }

    /// Whether the last fix became the last record or was merged into it (rather than left unrecorded
    /// by the mode's policy or for its accuracy).
    public internal(set) var lastFixRecorded = false

    /// When the next timer comes due, if any is scheduled.
    public var nextDeadline: Date? { timers.values.min() }

    /// Handles one input that happened at `now` and returns what the shell must do.
    public mutating func handle(_ input: TrackerInput, now: Date) -> [TrackerEffect] {
        var effects: [TrackerEffect] = []
        followClock(to: now, into: &effects)
        fireDueTimers(now: now, into: &effects)
        switch input {
        case .fix(let fix): handleFix(fix, now: now, into: &effects)
        case .visit(let visit): handleVisit(visit, now: now, into: &effects)
        case .activity(let report): followActivity(report, now: now, into: &effects)
        case .regionCrossing(let id, let state): handleCrossing(id: id, state: state, now: now, into: &effects)
        case .wake: break
        case .lifecycle(let lifecycle): handleLifecycle(lifecycle, now: now, into: &effects)
        case .command(let command):
            handleCommand(command, now: now, into: &effects)
            rearmDeferredFlush()
        }
        if isRunning { emitDueDwells(now: now, into: &effects) }
        flushIfDue(now: now, into: &effects)
        let changed = geofences.takeStateChanges(at: now)
        if !changed.isEmpty { effects.append(.saveRegionStates(changed)) }
        for effect in effects {
            switch effect {
            case .configureLocation(let request) where request != .off: lastTriedAt = now
            case .requestOneShot: lastTriedAt = now
            case .monitor: fencePlannedAt = now
            default: break
            }
        }
        return effects
    }

    /// Fires the timers due by `now`, earliest first.
    private mutating func fireDueTimers(now: Date, into effects: inout [TrackerEffect]) {
        while let id = timers.filter({ $0.value <= now }).min(by: { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) })?.key {
            timers[id] = nil
            handleTimer(id, now: now, into: &effects)
        }
    }

    private mutating func handleCommand(_ command: TrackerCommand, now: Date, into effects: inout [TrackerEffect]) {
        switch command {
        case .start:
            guard !isRunning else { return }
            isRunning = true
            resetMotion(at: now)
            applyLocationRequest(into: &effects)
            requestPosition(into: &effects)
        case .stop:
            guard isRunning else { return }
            isRunning = false
            resetMotion(at: now)
            geofences.forgetStates()
            activeTracking.map { configuration.mode = $0.previous }
            activeTracking = nil
            appliedRequest = nil
            slotPlan = nil
            effects += [.configureLocation(.off), .monitor([]), .forgetRegionStates]
            timers = [:]
            flush(.stopped, now: now, into: &effects)
            // Where the device is while tracking is off is unknown, as its regions are: the stay
            // ends with what was written, and the next fix, wherever it is, starts a record.
            lastRecord = nil
            stay = .none
        case .setMode(let newMode):
            if activeTracking != nil {
                activeTracking!.previous = newMode
            } else {
                configuration.mode = newMode
                resetMotion(at: now)
                if isRunning { applyLocationRequest(into: &effects) }
            }
        case .requestFix:
            recordNextFix = .request
            effects.append(.requestOneShot(configuration.oneShotAccuracy))
        case .startActiveTracking(let duration):
            let end = now.addingTimeInterval(max(0, duration))
            if let running = activeTracking {
                activeTracking = (running.previous, max(running.end, end))
            } else {
                activeTracking = (configuration.mode, end)
                configuration.mode = .continuous(accuracy: .best, distanceFilter: nil)
            }
            timers[.activeTrackingEnd] = activeTracking!.end
            if isRunning { applyLocationRequest(into: &effects) }
        case .addRegions(let regions):
            geofences.add(regions)
            replanAfterRegionChange(now: now, into: &effects)
        case .removeRegions(let ids):
            geofences.remove(ids)
            replanAfterRegionChange(now: now, into: &effects)
        case .setUploadInterval(let seconds):
            configuration.minimumFlushInterval = seconds
        case .forgetRecords:
            lastRecord = nil
            lastFixRecorded = false
            stay = .none
        }
    }

    private mutating func replanAfterRegionChange(now: Date, into effects: inout [TrackerEffect]) {
        guard isRunning else { return }
        if let position = lastFix?.coordinate { plan(at: position, now: now, into: &effects) }
        requestPosition(into: &effects)
    }

    private mutating func handleLifecycle(_ lifecycle: AppLifecycle, now: Date, into effects: inout [TrackerEffect]) {
        switch lifecycle {
        case .launchedByOS, .locationAllowed:
            if lifecycle == .launchedByOS { inForeground = false }
            guard isRunning else { return }
            appliedRequest = nil
            applyLocationRequest(into: &effects)
            if let plan = slotPlan {
                unmonitored = []
                effects.append(.monitor(plan.regions))
            }
            requestPosition(into: &effects)
        case .foreground:
            inForeground = true
            flush(.foreground, now: now, into: &effects)
        case .background:
            inForeground = false
        }
    }

    private mutating func handleTimer(_ timer: TimerID, now: Date, into effects: inout [TrackerEffect]) {
        switch timer {
        case .activeTrackingEnd:
            guard let ending = activeTracking, now >= ending.end else { return }
            activeTracking = nil
            configuration.mode = ending.previous
            rearmDeferredFlush()
            resetMotion(at: now)
            if isRunning { applyLocationRequest(into: &effects) }
        case .stationaryCheck:
            guard isRunning else { return }
            checkStillness(now: now, into: &effects)
        case .dwell:
            break
        case .clearance:
            clearanceDue(now: now, into: &effects)
        case .flush:
            flushIfDue(now: now, into: &effects)
        }
    }

    private mutating func handleCrossing(id: String, state: RegionState, now: Date, into effects: inout [TrackerEffect]) {
        guard isRunning else { return }
        if id == MonitoredRegion.refreshRegionID {
            guard state == .outside else { return }
            if case .stationary = motion { startMoving(at: now, into: &effects) }
            requestPosition(into: &effects)
            return
        }
        if clearance != nil {
            endCruise()
            applyLocationRequest(into: &effects)
        }
        // The OS's answer for a circle handed as it is places the device across the outline, not
        // beyond the band. Where it differs from the state held, a mode that takes finer fixes for
        // a region a fix leaves undecided (the adaptive family) lets its fixes decide; manual and
        // significant-change tracking have no better word, and apply it as a crossing.
        if statesAsked.remove(id) != nil, case .adaptive = configuration.mode, let held = geofences.state(of: id), held != state {
            requestPosition(into: &effects)
            return
        }
        // A fix decides a region whose first state the handed circle does not show, an entry it
        // cannot prove while the device rides or drives, and any entry into a polygon's enclosing
        // circle.
        let undetermined = geofences.index[id] != nil && geofences.state(of: id) == nil && !handedCircleHolds(state, of: id)
        if undetermined || (state == .inside && (ignoresUnprovenEntry(into: id) || entersEnclosingCircle(of: id))) {
            requestPosition(into: &effects)
            return
        }
        let streaming = appliedRequest?.standard != nil
        let missed = !fixWatch.covers(GeofenceRule.fixPrecedence, before: now) && handedCircleProves(state, of: id)
        guard let event = geofences.osCrossing(id: id, state: state, at: now, fixesStreaming: streaming, fixesMissed: missed)
        else { return }
        emit([event], now: now, into: &effects)
        refitSlots(now: now, into: &effects)
        if case .stationary = motion { startMoving(at: now, into: &effects) }
        if recordNextFix == nil { recordNextFix = .region }
        requestPosition(into: &effects)
    }

    /// Reports events: emits them and flushes uploads when a real transition happened.
    mutating func emit(_ events: [RegionEvent], now: Date, into effects: inout [TrackerEffect]) {
        guard !events.isEmpty else { return }
        effects += events.map { .emit($0) }
        if events.contains(where: { !$0.initial }) { flush(.regionEvent, now: now, into: &effects) }
    }

    private mutating func emitDueDwells(now: Date, into effects: inout [TrackerEffect]) {
        emit(geofences.dueDwells(at: now), now: now, into: &effects)
        timers[.dwell] = geofences.nextDwellDue
    }

    /// Asks for one fix unless standard updates are already delivering them.
    mutating func requestPosition(into effects: inout [TrackerEffect]) {
        guard appliedRequest?.standard == nil else { return }
        effects.append(.requestOneShot(configuration.oneShotAccuracy))
    }
}

/// The stay at the last record.
struct Stay: Sendable {
    /// The last moment a fix (or the stationary state) showed the device at the record's place.
    var lastThere: Date
    /// The dwell in seconds last handed to the store.
    var written: TimeInterval
    /// Whether the stay still lasts: nothing has shown the device left.
    var open: Bool
    /// The accuracy in metres of the record's written position: its own fix's, or that of the finer
    /// still fix that placed it since (``TrackerEffect/placeRecord(_:)``).
    var placedWithin: Double
    /// Whether a GPS fix was asked for to place the record where the device stopped (``MotionPolicy/placesStops``).
    var placementAsked = false
    /// When the motion coprocessor saw the device set off from the place (a confident report's start,
    /// ``Tracker/startMoving(at:leaving:into:)``), while no fix has shown it there since: the stay
    /// ends then, whatever later estimate a fix's distance or a visit's departure gives.
    var setOff: Date?

    /// No stay: before the first record, and after the records were forgotten.
    static let none = Stay(lastThere: .distantPast, written: 0, open: false, placedWithin: .infinity)
}
