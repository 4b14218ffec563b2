import Foundation

/// The app's location session as one pure state machine: `(input, now) → [effect]`.
///
/// A session owns the ``Tracker`` (tracking on or off, the mode, regions and their states, motion,
/// timers, records and flushes) and the ``PermissionCoordinator``, and makes every decision the app's
/// calls need: when permission blocks a start, which configuration is remembered, when a newly
/// allowed location restarts the services, which server commands apply, how a new set of regions
/// differs from the current one, which durations active tracking accepts. What must outlive the
/// process comes out as ``SessionEffect/store(_:)`` effects; a ``SavedSession`` read at launch brings
/// it back.
///
/// A shell (``LocationEngine`` in an app, for `whereabouts track` and for `whereabouts simulate`)
/// performs the effects and wakes the session at ``nextDeadline``.
public struct Session: Sendable {
    /// The tracking state machine.
    public private(set) var tracker: Tracker
    /// The permission rules and records.
    public private(set) var permissions: PermissionCoordinator
    /// Whether the app process has launched (``SessionInput/launch(_:_:)``).
    public private(set) var isLaunched = false
    /// Whether tracking was on when the saved session was written; it restarts at launch.
    private var resumeTracking: Bool
    /// When the active tracking a killed app was running ends, for the launch to go on with it.
    private var resumeActiveUntil: Date?
    /// Where uploads go and the credential they present, as the app last set them.
    public private(set) var uploads: UploadAccount
    /// The ids of the server commands carried out and not yet acknowledged to the server: a command
    /// the server sends again meanwhile is not carried out twice.
    public private(set) var unacknowledgedCommands: [String]
    /// When to flush again after an upload failed (its back-off), if one did.
    public private(set) var uploadRetry: Date?

    /// The longest active tracking, in seconds.
    public static let maximumActiveTracking: TimeInterval = 86_400

    /// Restores a session from what the store kept (``SavedSession/empty`` on first launch), before
    /// launch. Region states and the last record's stay are restored only when tracking was on:
    /// after a stop, where the device went is unknown.
    public init(
        restoring saved: SavedSession, defaults: TrackerConfiguration, permissionRules: PermissionCoordinator.Configuration = .init()
    ) {
        tracker = Tracker(configuration: saved.configuration ?? defaults, regions: saved.regions)
        let lastRecord = saved.trackingEnabled ? saved.lastRecord : nil
        tracker.restore(
            lastRecord: lastRecord, stayEnded: lastRecord != nil && saved.stayEnded == lastRecord?.id,
            regionStates: saved.trackingEnabled ? saved.regionStates : [])
        permissions = PermissionCoordinator(permissions: saved.permissions ?? Permissions(), configuration: permissionRules)
        resumeTracking = saved.trackingEnabled
        resumeActiveUntil = saved.trackingEnabled ? saved.activeTrackingEnd : nil
        uploads = saved.uploads
        unacknowledgedCommands = saved.unacknowledgedCommands
    }

    /// Whether tracking is on (it stays on across relaunches until stopped).
    public var isTracking: Bool { tracker.isRunning }

    /// When the session must be woken with ``SessionInput/wake`` (its next timer or upload retry), if ever.
    public var nextDeadline: Date? {
        guard let uploadRetry else { return tracker.nextDeadline }
        return min(uploadRetry, tracker.nextDeadline ?? uploadRetry)
    }

    /// The configuration the app set: the one in force, with the configured mode during active tracking.
    public var configuration: TrackerConfiguration {
        var configuration = tracker.configuration
        configuration.mode = tracker.configuredMode
        return configuration
    }

    /// Handles one input that happened at `now` and returns what the shell must do, in order.
    public mutating func handle(_ input: SessionInput, now: Date) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        switch input {
        case .launch(_, let authorization):
            guard !isLaunched else { break }
            isLaunched = true
            permit(.authorizationChanged(authorization), now: now, into: &effects)
            if resumeTracking { startTracking(now: now, into: &effects) }
            resumeActiveTracking(now: now, into: &effects)
        case .start(let mode, let authorization):
            start(mode: mode, authorization: authorization, now: now, into: &effects)
        case .stop:
            effects.append(.store(.trackingEnabled(false)))
            track(.command(.stop), now: now, into: &effects)
        case .setMode(let mode):
            track(.command(.setMode(mode)), now: now, into: &effects)
            effects.append(.store(.configuration(configuration)))
        case .setUploadInterval(let seconds):
            if let refusal = Self.uploadIntervalRefusal(seconds) {
                effects.append(.refuse(refusal))
            } else {
                track(.command(.setUploadInterval(seconds)), now: now, into: &effects)
                effects.append(.store(.configuration(configuration)))
            }
        case .becameActive(let authorization):
            permit(.becameActive(authorization), now: now, into: &effects)
            track(.lifecycle(.foreground), now: now, into: &effects)
        case .enteredBackground:
            track(.lifecycle(.background), now: now, into: &effects)
        case .checkPermissions(let authorization):
            permit(.becameActive(authorization), now: now, into: &effects)
        case .locationAction(let authorization):
            permit(.authorizationChanged(authorization), now: now, into: &effects)
            permit(.locationAction, now: now, into: &effects)
        case .requestPermission(let kind, let authorization):
            permit(.authorizationChanged(authorization), now: now, into: &effects)
            permit(.request(kind), now: now, into: &effects)
        case .authorizationChanged(let authorization):
            permit(.authorizationChanged(authorization), now: now, into: &effects)
            for problem in permissions.problems where Self.refusals.contains(problem.code) {
                effects.append(
                    .notice("location permission refused (\(problem.code.rawValue), \(problem.kind.rawValue)): \(problem.message)"))
            }
        case .fix(let fix):
            track(.fix(fix), now: now, into: &effects)
        case .visit(let visit):
            track(.visit(visit), now: now, into: &effects)
        case .activity(let activity):
            track(.activity(activity), now: now, into: &effects)
        case .regionCrossing(let id, let state):
            track(.regionCrossing(id: id, state: state), now: now, into: &effects)
        case .regionMonitoringFailed(let id):
            tracker.monitoringFailed(for: id)
            endSuspendedCruise(into: &effects)
        case .wake:
            if let uploadRetry, uploadRetry <= now {
                self.uploadRetry = nil
                effects.append(.retryUploads)
            }
            track(.wake, now: now, into: &effects)
        case .uploaded(let report):
            receive(report.commands, now: now, into: &effects)
            let settled = Set(report.acknowledged)
            unacknowledgedCommands.removeAll { settled.contains($0) }
            switch report.stoppedBy {
            case nil, .misconfigured: uploadRetry = nil
            case .failed(_, let retryAt): uploadRetry = retryAt
            case .backingOff, .signedOut, .storeError, .outOfTime: break
            }
        case .requestFix:
            track(.command(.requestFix), now: now, into: &effects)
        case .backgroundRefresh:
            if isTracking {
                track(.command(.requestFix), now: now, into: &effects)
            } else {
                effects.append(.refuse(Refusal(.trackingDisabled, "the background refresh needs tracking on; it is skipped")))
            }
        case .startActiveTracking(let duration):
            if let refusal = Self.activeTrackingRefusal(duration: duration, tracking: isTracking) {
                effects.append(.refuse(refusal))
            } else {
                track(.command(.startActiveTracking(duration: duration)), now: now, into: &effects)
            }
        case .addRegions(let regions):
            if let refusal = Self.duplicateRefusal(regions) {
                effects.append(.refuse(refusal))
            } else {
                add(regions, now: now, into: &effects)
            }
        case .removeRegions(let ids):
            remove(ids, now: now, into: &effects)
        case .recordsCleared:
            track(.command(.forgetRecords), now: now, into: &effects)
        case .setRegions(let regions):
            if let refusal = Self.duplicateRefusal(regions) {
                effects.append(.refuse(refusal))
            } else {
                replaceRegions(with: regions, now: now, into: &effects)
            }
        case .configureUploads(let settings):
            uploads.settings = settings
            effects.append(.store(.uploadSettings(settings)))
        case .setAuthTokens(let tokens):
            uploads.tokens = tokens
            effects.append(.store(.authTokens(tokens)))
        case .serverCommands(let commands):
            receive(commands, now: now, into: &effects)
        }
        return effects
    }

    // MARK: Tracking

    private mutating func start(mode: TrackingMode?, authorization: PlatformAuthorization, now: Date, into effects: inout [SessionEffect]) {
        permit(.authorizationChanged(authorization), now: now, into: &effects)
        permit(authorization.grantsForeground ? .request(.background) : .locationAction, now: now, into: &effects)
        if !authorization.grantsForeground && !authorization.canPrompt {
            effects.append(.refuse(Refusal(.permissionDenied, permissions.problem?.message ?? "location is not allowed for this app")))
            return
        }
        if let mode { track(.command(.setMode(mode)), now: now, into: &effects) }
        effects.append(.store(.configuration(configuration)))
        effects.append(.store(.trackingEnabled(true)))
        startTracking(now: now, into: &effects)
    }

    private mutating func startTracking(now: Date, into effects: inout [SessionEffect]) {
        resumeTracking = false
        track(.command(.start), now: now, into: &effects)
    }

    /// Hands `input` to the Tracker; an active tracking that starts, extends or ends is stored.
    private mutating func track(_ input: TrackerInput, now: Date, into effects: inout [SessionEffect]) {
        let activeBefore = tracker.activeTracking?.end
        effects += tracker.handle(input, now: now).map(SessionEffect.track)
        let activeAfter = tracker.activeTracking?.end
        if activeAfter != activeBefore { effects.append(.store(.activeTrackingEnd(activeAfter))) }
    }

    /// Wakes the app from a cruise it slept through on the OS's monitoring, once the OS may not settle
    /// what it was left (``Tracker/endSuspendedCruise(into:)``).
    private mutating func endSuspendedCruise(into effects: inout [SessionEffect]) {
        var tracked: [TrackerEffect] = []
        tracker.endSuspendedCruise(into: &tracked)
        effects += tracked.map(SessionEffect.track)
    }

    /// Goes on with the active tracking a killed app was running, until its end (at most
    /// ``maximumActiveTracking`` from now, should the clock have gone back); one that ended while
    /// the app was dead is forgotten.
    private mutating func resumeActiveTracking(now: Date, into effects: inout [SessionEffect]) {
        guard let end = resumeActiveUntil else { return }
        resumeActiveUntil = nil
        guard isTracking, end > now else {
            effects.append(.store(.activeTrackingEnd(nil)))
            return
        }
        track(
            .command(.startActiveTracking(duration: min(end.timeIntervalSince(now), Self.maximumActiveTracking))), now: now, into: &effects)
    }

    /// The problems that are a refusal, logged each time the OS reports an authorization that has one.
    private static let refusals: Set<PermissionProblem.Code> = [.restricted, .foregroundDenied, .backgroundDenied]

    /// Hands `input` to the permission rules. Whichever input first shows location newly allowed
    /// while tracking is on (the OS's change, or the authorization an app call read as it came)
    /// has the Tracker configure its location services again.
    private mutating func permit(_ input: PermissionInput, now: Date, into effects: inout [SessionEffect]) {
        let wasAllowed = permissions.authorization?.grantsForeground ?? false
        for effect in permissions.handle(input, now: now) {
            switch effect {
            case .permissionsChanged(let records): effects.append(.store(.permissions(records)))
            case .requestAuthorization(let kind): effects.append(.requestAuthorization(kind))
            case .openSettings: effects.append(.openSettings)
            }
        }
        tracker.osMonitorsRegions = permissions.authorization?.monitorsRegions ?? true
        if !tracker.osMonitorsRegions { endSuspendedCruise(into: &effects) }
        if !wasAllowed, permissions.authorization?.grantsForeground == true, isTracking {
            track(.lifecycle(.locationAllowed), now: now, into: &effects)
        }
    }

    private static func uploadIntervalRefusal(_ seconds: TimeInterval?) -> Refusal? {
        guard let seconds, let problem = TrackerConfiguration.uploadIntervalProblem(seconds) else { return nil }
        return Refusal(.invalidArgument, "the upload interval \(problem), or null for the mode's own")
    }

    private static func activeTrackingRefusal(duration: TimeInterval, tracking: Bool) -> Refusal? {
        guard duration.isFinite, duration >= 1, duration <= maximumActiveTracking else {
            return Refusal(.invalidArgument, "active tracking for \(duration) s is not in 1 s ... 24 h; pass a duration in that range")
        }
        guard tracking else { return Refusal(.trackingDisabled, "active tracking needs tracking on; call start first") }
        return nil
    }

    // MARK: Regions

    private mutating func add(_ regions: [Region], now: Date, into effects: inout [SessionEffect]) {
        guard !regions.isEmpty else { return }
        effects.append(.store(.saveRegions(regions)))
        track(.command(.addRegions(regions)), now: now, into: &effects)
    }

    private mutating func remove(_ ids: [String], now: Date, into effects: inout [SessionEffect]) {
        guard !ids.isEmpty else { return }
        effects.append(.store(.removeRegions(ids)))
        track(.command(.removeRegions(ids)), now: now, into: &effects)
    }

    /// Makes `regions` the whole set: regions not in it are removed, new or changed ones added (a
    /// changed one's state is forgotten without an exit), unchanged ones keep their state.
    private mutating func replaceRegions(with regions: [Region], now: Date, into effects: inout [SessionEffect]) {
        let index = tracker.geofences.index
        let kept = Set(regions.map(\.id))
        remove(index.regions.map(\.id).filter { !kept.contains($0) }, now: now, into: &effects)
        add(regions.filter { index[$0.id] != $0 }, now: now, into: &effects)
    }

    /// A refusal when an id appears twice in `regions` (nothing is then changed).
    private static func duplicateRefusal(_ regions: [Region]) -> Refusal? {
        var seen: [String: Int] = [:]
        for (position, region) in regions.enumerated() {
            if let first = seen.updateValue(position, forKey: region.id) {
                return Refusal(
                    .duplicateRegion,
                    "regions \(first) and \(position) both have the id \"\(region.id)\"; give each region its own id (nothing was changed)")
            }
        }
        return nil
    }

    // MARK: Server commands

    /// Carries out the commands not carried out yet, once each, and remembers them until acknowledged.
    private mutating func receive(_ commands: [DeviceCommand], now: Date, into effects: inout [SessionEffect]) {
        var seen = Set(unacknowledgedCommands)
        let fresh = commands.filter { seen.insert($0.id).inserted }
        for command in fresh { apply(command, now: now, into: &effects) }
        guard !fresh.isEmpty else { return }
        unacknowledgedCommands += fresh.map(\.id)
        effects.append(.store(.commandsApplied(fresh.map(\.id))))
    }

    /// Carries out one server command, or says why not. Every command is idempotent: a report
    /// takes one more fix, active tracking ends at the later of the two ends, a region set is the
    /// same set.
    private mutating func apply(_ command: DeviceCommand, now: Date, into effects: inout [SessionEffect]) {
        switch command.command {
        case .reportLocation:
            track(.command(.requestFix), now: now, into: &effects)
        case .startActiveTracking(let minutes):
            if let refusal = Self.activeTrackingRefusal(duration: Double(minutes) * 60, tracking: isTracking) {
                effects.append(.notice("server command \(command.id) (startActiveTracking) was not carried out: \(refusal.message)"))
            } else {
                track(.command(.startActiveTracking(duration: Double(minutes) * 60)), now: now, into: &effects)
            }
        case .setRegions(let wire):
            do {
                let regions = try wire.map { region throws(ValidationError) in try region.region() }
                if let refusal = Self.duplicateRefusal(regions) { throw refusal }
                replaceRegions(with: regions, now: now, into: &effects)
            } catch {
                effects.append(.notice("server command \(command.id) (setRegions) was refused: \(error)"))
            }
        }
    }
}
