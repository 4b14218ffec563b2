import Foundation

/// The story app's permission rules as a pure state machine: `(input, now) → [effect]`.
///
/// ## Records
/// ``permissions`` holds a foreground and a background ``PermissionRecord``, each `nil` until it first
/// matters:
/// - the foreground record appears when foreground is first asked for, or when the OS reports any
///   answer other than *not determined* (for example a permission granted on a previous install);
/// - the background record appears when background is first asked for, or when the OS reports
///   background truly granted (Always, not provisional).
///
/// Every authorization handed in refreshes the existing records: `checkedAt` becomes `now`,
/// `isGranted` follows the authorization and `updatedAt` becomes `now` when `isGranted` changed;
/// the foreground's `canAskAgain` is `false` exactly when foreground is not granted and the OS will not
/// show its dialog again. Asking for a permission sets its `requestedAt` to `now`.
///
/// ## Platform states
/// - When In Use: foreground granted, background not.
/// - Always: both granted.
/// - Provisional Always (iOS 13+): CoreLocation reports `authorizedAlways` although the user chose
///   Allow While Using, and shows a second prompt itself the first time the app uses location in the
///   background (Apple, "requestAlwaysAuthorization()", developer.apple.com/documentation/corelocation/
///   cllocationmanager/requestalwaysauthorization(): "Provisional Always … your app receives Always
///   authorization … However, when an event occurs that requires Always authorization, the system
///   displays the second prompt"; WWDC19 session 705 "What's New in Core Location"). Until the user
///   confirms, background is recorded as **not granted**, and the coordinator never asks for it (Core
///   Location ignores further `requestAlwaysAuthorization()` calls); ``problems`` reports
///   `backgroundProvisional`.
/// - Reduced accuracy: the records show the permission granted; ``problems`` reports
///   `reducedAccuracy` (positions off by kilometres, no region monitoring).
/// - Restricted and denied: not granted; `canAskAgain` follows the authorization's `canPrompt`
///   (`false` on iOS).
///
/// ## Asking for background, and the back-off
/// *The user refused background* when the background record has a `requestedAt` and is not granted,
/// and has not changed since: the answer to that request (and every report since) lacked Always. A
/// background granted after the request and taken away later in Settings is no refusal of the app's
/// request, so no back-off holds the next one. Background is then not asked for
/// again, on activation or on request, until `requestedAt + backgroundRetryDelay` (default 2 hours);
/// at that instant it may be asked again, and the new request starts a new back-off. Nothing else ends
/// the back-off early: a relaunch does not (the records are persisted), and a grant of background makes
/// it moot. Background is never asked for before foreground is granted, nor while Always is
/// provisional, nor when the authorization's `canPrompt` is `false` (on iOS after the one Always
/// prompt Core Location shows); in that last case an explicit request (a `start`) opens Settings
/// instead, while activation asks nothing. Opening Settings for background counts as asking: it sets
/// `requestedAt` and is subject to the same back-off, so an app that calls `start` on every launch
/// sends the user to Settings at most once every two hours, not every time.
///
/// ## Asking for foreground
/// A location action, or an explicit request for either kind while foreground is not granted, asks for
/// foreground when the OS will show its dialog (`canPrompt`), or opens Settings when it will not.
/// Restricted location asks nothing and opens nothing: the restriction is not on the app's Settings
/// page (``problems`` reports `restricted`). Before any authorization was reported the coordinator
/// assumes *not determined* and asks; the OS answers with the real state.
public struct PermissionCoordinator: Sendable, Equatable {
    /// The coordinator's tunables.
    public struct Configuration: Sendable, Equatable, Hashable, Codable {
        /// Seconds to wait after a background request the user refused before asking again
        /// (the story app's "at least a couple of hours"); 7200 by default.
        public var backgroundRetryDelay: TimeInterval

        /// Creates a configuration.
        public init(backgroundRetryDelay: TimeInterval = 2 * 60 * 60) {
            self.backgroundRetryDelay = backgroundRetryDelay
        }
    }

    /// The tunables in force.
    public let configuration: Configuration
    /// The records, as persisted and shown to the app.
    public private(set) var permissions: Permissions
    /// The last authorization the OS reported, or `nil` before the first report.
    public private(set) var authorization: PlatformAuthorization?
    /// When ``authorization`` was reported.
    public private(set) var authorizationCheckedAt: Date?

    /// Creates a coordinator with the records restored from the store (none on first launch).
    public init(permissions: Permissions = Permissions(), configuration: Configuration = Configuration()) {
        self.permissions = permissions
        self.configuration = configuration
    }

    /// Handles one input that happened at `now` and returns what the shell must do, in order:
    /// ``PermissionEffect/permissionsChanged(_:)`` first when the records changed, then at most one
    /// dialog request or ``PermissionEffect/openSettings``.
    public mutating func handle(_ input: PermissionInput, now: Date) -> [PermissionEffect] {
        let before = permissions
        var action: PermissionEffect?
        switch input {
        case .becameActive(let authorization):
            refresh(with: authorization, now: now)
            if mayAskBackground(now: now) { action = ask(.background, now: now) }
        case .authorizationChanged(let authorization):
            refresh(with: authorization, now: now)
        case .locationAction, .request(.foreground):
            action = foregroundAction(now: now)
        case .request(.background):
            action = backgroundAction(now: now)
        }
        var effects: [PermissionEffect] = permissions == before ? [] : [.permissionsChanged(permissions)]
        if let action { effects.append(action) }
        return effects
    }

    /// The problems the app should show, most severe first (see ``PermissionProblem/diagnose(_:permissions:)``).
    public var problems: [PermissionProblem] { PermissionProblem.diagnose(authorization, permissions: permissions) }

    /// The most severe problem, or `nil` when nothing is wrong.
    public var problem: PermissionProblem? { problems.first }

    /// When the back-off after a refused background request ends, or `nil` when background is granted,
    /// was never asked for, or was granted after the last request and taken away since (in Settings: the
    /// user refused nothing the app asked). Background may be asked for again at and after this instant.
    public var backgroundBackOffEnd: Date? {
        guard let background = permissions.background, !background.isGranted, let requested = background.requestedAt,
            background.updatedAt <= requested
        else { return nil }
        return requested.addingTimeInterval(configuration.backgroundRetryDelay)
    }

    /// The authorization decisions are made on: the last report, or *not determined* before any.
    private var current: PlatformAuthorization { authorization ?? PlatformAuthorization(status: .notDetermined) }

    /// Whether background is granted for good (Always and not provisional).
    private static func grantsBackground(_ authorization: PlatformAuthorization) -> Bool {
        authorization.grantsBackground && !authorization.provisional
    }

    /// The foreground record's `canAskAgain`: `false` only when not granted and the OS will not ask.
    private static func canAskForeground(_ authorization: PlatformAuthorization) -> Bool {
        authorization.grantsForeground || authorization.canPrompt
    }

    private func inBackOff(now: Date) -> Bool {
        backgroundBackOffEnd.map { now < $0 } ?? false
    }

    /// Activation's rule: foreground granted, background not, the OS can ask and the back-off is over.
    private func mayAskBackground(now: Date) -> Bool {
        let authorization = current
        return authorization.grantsForeground && !Self.grantsBackground(authorization) && !authorization.provisional
            && authorization.canPrompt && !inBackOff(now: now)
    }

    private mutating func foregroundAction(now: Date) -> PermissionEffect? {
        let authorization = current
        if authorization.grantsForeground || authorization.status == .restricted { return nil }
        return authorization.canPrompt ? ask(.foreground, now: now) : .openSettings
    }

    private mutating func backgroundAction(now: Date) -> PermissionEffect? {
        let authorization = current
        guard authorization.grantsForeground else { return foregroundAction(now: now) }
        if Self.grantsBackground(authorization) || authorization.provisional || inBackOff(now: now) { return nil }
        guard authorization.canPrompt else {
            markRequested(.background, now: now)
            return .openSettings
        }
        return ask(.background, now: now)
    }

    /// Marks `kind` as requested at `now`, creating its record if needed, and returns the request.
    private mutating func ask(_ kind: PermissionKind, now: Date) -> PermissionEffect {
        markRequested(kind, now: now)
        return .requestAuthorization(kind)
    }

    /// Sets `kind`'s `requestedAt` to `now`, creating its record if needed.
    private mutating func markRequested(_ kind: PermissionKind, now: Date) {
        let authorization = current
        let checkedAt = authorizationCheckedAt ?? now
        switch kind {
        case .foreground:
            var record =
                permissions.foreground
                ?? PermissionRecord(
                    isGranted: authorization.grantsForeground, updatedAt: now, checkedAt: checkedAt,
                    canAskAgain: Self.canAskForeground(authorization))
            record.requestedAt = now
            permissions.foreground = record
        case .background:
            var record =
                permissions.background
                ?? PermissionRecord(isGranted: Self.grantsBackground(authorization), updatedAt: now, checkedAt: checkedAt)
            record.requestedAt = now
            permissions.background = record
        }
    }

    /// Takes in an authorization read from the OS at `now` and brings the records up to date.
    private mutating func refresh(with authorization: PlatformAuthorization, now: Date) {
        self.authorization = authorization
        authorizationCheckedAt = now

        let foregroundGranted = authorization.grantsForeground
        if permissions.foreground != nil || authorization.status != .notDetermined {
            var record = permissions.foreground ?? PermissionRecord(isGranted: foregroundGranted, updatedAt: now, checkedAt: now)
            Self.update(&record, granted: foregroundGranted, now: now)
            record.canAskAgain = Self.canAskForeground(authorization)
            permissions.foreground = record
        }

        let backgroundGranted = Self.grantsBackground(authorization)
        if permissions.background != nil || backgroundGranted {
            var record = permissions.background ?? PermissionRecord(isGranted: backgroundGranted, updatedAt: now, checkedAt: now)
            Self.update(&record, granted: backgroundGranted, now: now)
            permissions.background = record
        }
    }

    private static func update(_ record: inout PermissionRecord, granted: Bool, now: Date) {
        record.checkedAt = now
        if record.isGranted != granted {
            record.isGranted = granted
            record.updatedAt = now
        }
    }
}
