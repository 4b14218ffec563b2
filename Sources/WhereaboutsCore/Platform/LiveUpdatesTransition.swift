import Foundation

/// The sessions the modern path (iOS 17 and later) holds while tracking runs: a
/// `CLBackgroundActivitySession`, which keeps a When In Use app in use in the background, and on iOS 18
/// a `CLServiceSession` stating the authorization the app works under.
///
/// Apple DTS (developer forums, threads 767865 and 797319): starting either session from the background
/// is prohibited, and so is starting live updates there under When In Use. So the sessions are created
/// once, when tracking starts (normally in the foreground), and held whichever path serves the requests
/// that follow (``LiveUpdatesTransition``).
public struct LiveSessions: Sendable, Equatable {
    /// Whether a `CLBackgroundActivitySession` is held (only with the `location` background mode).
    public let backgroundActivity: Bool
    /// Whether the iOS 18 `CLServiceSession` asks for Always (else When In Use).
    public let always: Bool

    /// Sessions with the given parts.
    public init(backgroundActivity: Bool, always: Bool) {
        self.backgroundActivity = backgroundActivity
        self.always = always
    }

    /// The sessions an app with `setup` holds under `authorization`.
    public init(setup: AppSetup, authorization: PlatformAuthorization) {
        self.init(backgroundActivity: setup.allowsBackgroundUpdates, always: authorization.grantsBackground)
    }
}

/// What serves the engine's standard updates on iOS at one moment: the sessions held, the live updates
/// running, and whether `CLLocationManager`'s standard updates run.
public struct StandardUpdatesPaths: Sendable, Equatable {
    /// The sessions held, or `nil`.
    public var sessions: LiveSessions?
    /// The live updates running, or `nil`.
    public var live: LiveUpdatesPlan?
    /// Whether `CLLocationManager`'s standard updates run.
    public var classic: Bool

    /// Nothing runs: a new process.
    public static let none = StandardUpdatesPaths(sessions: nil, live: nil, classic: false)

    /// The paths with the given parts.
    public init(sessions: LiveSessions?, live: LiveUpdatesPlan?, classic: Bool) {
        self.sessions = sessions
        self.live = live
        self.classic = classic
    }

    /// Whether the classic updates run only until the live updates deliver their first position.
    public var handingOver: Bool { classic && live != nil }
}

/// How the iOS adapter goes from what runs (``StandardUpdatesPaths``) to what a new
/// ``CoreLocationConfiguration`` asks for: the steps, in the order to take them, and what runs after.
///
/// The rules, so that a change of request in the background never ends what keeps the app running:
/// - Sessions (``LiveSessions``) are created by the first configuration with standard updates that finds
///   the app authorized (tracking starting, normally in the foreground), and held while the engine asks
///   for anything (standard updates on either path, significant changes, visits, or regions: a stopped
///   device's geofence), so that the updates after a stop start under them. They are invalidated when
///   the engine asks for nothing, which is what stopping tracking does. A session held keeps the
///   authorization it was created with (a `CLServiceSession` for When In Use stays so after Always is
///   granted): replacing it would create one, which may be in the background.
/// - A change of the distance filter alone changes the adapter's filter (``Step/setLiveFilter(_:)``);
///   CoreLocation is not restarted.
/// - A change of the live configuration (`.default` and `.otherNavigation`) starts the new iteration,
///   and the old one ends only when the new one delivers (``Step/startLive(_:)``).
/// - Classic to live: the live updates start, and the classic updates go on until the first live
///   position arrives (``firstLivePosition(in:)``).
/// - Live to classic: the classic updates start before the live ones stop.
///
/// Without a modern path (iOS 15 and 16) every request runs on the classic updates and no session is held.
public struct LiveUpdatesTransition: Sendable, Equatable {
    /// One step, for `CLLocationManager` (the classic steps) or ``LiveUpdatesRunning`` (the rest).
    public enum Step: Sendable, Equatable {
        /// Create and hold the sessions.
        case createSessions(LiveSessions)
        /// `startUpdatingLocation()`.
        case startClassic
        /// Start live updates for the plan; live updates already running go on until the new ones
        /// deliver their first position.
        case startLive(LiveUpdatesPlan)
        /// Change the distance filter the adapter applies to the running live updates.
        case setLiveFilter(Double?)
        /// Stop the live updates.
        case stopLive
        /// `stopUpdatingLocation()`.
        case stopClassic
        /// Invalidate the sessions.
        case invalidateSessions
    }

    /// The steps, in order.
    public let steps: [Step]
    /// What runs after the steps.
    public let paths: StandardUpdatesPaths

    /// The transition with `steps` to `paths`.
    public init(steps: [Step], paths: StandardUpdatesPaths) {
        self.steps = steps
        self.paths = paths
    }

    /// The transition from `current` to what `configuration` asks for.
    /// - Parameters:
    ///   - current: what runs now.
    ///   - configuration: the new configuration.
    ///   - regions: whether the engine has regions monitored.
    ///   - setup: what the app's Info.plist declares.
    ///   - authorization: the authorization now.
    ///   - modernPath: whether live updates and sessions exist (iOS 17 and later).
    public init(
        from current: StandardUpdatesPaths, to configuration: CoreLocationConfiguration, regions: Bool, setup: AppSetup,
        authorization: PlatformAuthorization, modernPath: Bool
    ) {
        var steps: [Step] = []
        var paths = current
        let tracking = configuration.standardUpdates || configuration.significantChanges || configuration.visits || regions
        var invalidates = false
        if current.sessions == nil, modernPath, configuration.standardUpdates, authorization.grantsForeground {
            let sessions = LiveSessions(setup: setup, authorization: authorization)
            paths.sessions = sessions
            steps.append(.createSessions(sessions))
        } else if current.sessions != nil, !tracking || !modernPath {
            paths.sessions = nil
            invalidates = true
        }
        let live = modernPath ? LiveUpdatesPlan(configuration) : nil
        switch (current.live, live) {
        case (nil, nil):
            if configuration.standardUpdates, !current.classic {
                steps.append(.startClassic)
            } else if !configuration.standardUpdates, current.classic {
                steps.append(.stopClassic)
            }
            paths.classic = configuration.standardUpdates
        case (nil, let new?):
            steps.append(.startLive(new))
        case (_?, nil):
            if configuration.standardUpdates {
                if !current.classic { steps.append(.startClassic) }
                steps.append(.stopLive)
            } else {
                steps.append(.stopLive)
                if current.classic { steps.append(.stopClassic) }
            }
            paths.classic = configuration.standardUpdates
        case (let old?, let new?):
            if old.kind != new.kind {
                steps.append(.startLive(new))
            } else if old.distanceFilter != new.distanceFilter {
                steps.append(.setLiveFilter(new.distanceFilter))
            }
        }
        paths.live = live
        if invalidates { steps.append(.invalidateSessions) }
        self.init(steps: steps, paths: paths)
    }

    /// The live updates delivered a position: classic updates kept running for the hand-over stop.
    public static func firstLivePosition(in current: StandardUpdatesPaths) -> LiveUpdatesTransition {
        guard current.handingOver else { return LiveUpdatesTransition(steps: [], paths: current) }
        var paths = current
        paths.classic = false
        return LiveUpdatesTransition(steps: [.stopClassic], paths: paths)
    }
}
