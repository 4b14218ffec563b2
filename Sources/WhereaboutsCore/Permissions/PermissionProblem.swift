import Foundation

/// A permission state that keeps the app from doing its job, for the app to show: a stable ``code``
/// to branch on and a ``message`` saying what is wrong and what the user can do. A denied permission is
/// such a state, never a crash.
public struct PermissionProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable identifiers of the problems; the raw values are what JavaScript sees.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// A policy (Screen Time, parental controls, device management) forbids location.
        case restricted
        /// The user refused location, or Location Services are off for the whole device.
        case foregroundDenied
        /// Location is allowed only while the app is in use; the user refused background.
        case backgroundDenied
        /// iOS granted Always provisionally and will ask the user to confirm it the first time the app
        /// uses location in the background.
        case backgroundProvisional
        /// Location is allowed but approximate (iOS Precise Location off).
        case reducedAccuracy
    }

    /// What is wrong.
    public let code: Code
    /// The permission concerned.
    public let kind: PermissionKind
    /// One or two sentences for the user: what is wrong and what to do about it.
    public let message: String
    /// Whether the app's page in the Settings app is where the user can fix it (so an "Open Settings"
    /// button makes sense).
    public let settingsCanFix: Bool

    /// Creates a problem.
    public init(code: Code, kind: PermissionKind, message: String, settingsCanFix: Bool) {
        self.code = code
        self.kind = kind
        self.message = message
        self.settingsCanFix = settingsCanFix
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// Location is restricted by a policy the user of the app cannot change from the app's page.
    public static let restricted = PermissionProblem(
        code: .restricted, kind: .foreground,
        message:
            "Location is restricted on this device by Screen Time, parental controls or device management, so this app cannot get "
            + "positions; only the person who manages the device can lift the restriction (Settings › Screen Time › Content & "
            + "Privacy Restrictions › Location Services).",
        settingsCanFix: false)

    /// Location was refused and the OS will not ask again.
    public static let foregroundDenied = PermissionProblem(
        code: .foregroundDenied, kind: .foreground,
        message:
            "Location is off for this app, or Location Services are off for the whole device; open Settings › Privacy & Security "
            + "› Location Services, turn Location Services on and set this app to While Using the App or Always.",
        settingsCanFix: true)

    /// Location was refused, but the OS will show its dialog again.
    public static let foregroundDeniedAskable = PermissionProblem(
        code: .foregroundDenied, kind: .foreground,
        message:
            "Location permission was refused; the app asks again the next time you use a location feature, or you can allow "
            + "it in Settings › Privacy & Security › Location Services.",
        settingsCanFix: true)

    /// Background location was refused.
    public static let backgroundDenied = PermissionProblem(
        code: .backgroundDenied, kind: .background,
        message:
            "Location is allowed only while the app is open, so places are not noticed while it is in the background; to allow "
            + "it, open Settings › Privacy & Security › Location Services, choose this app and select Always.",
        settingsCanFix: true)

    /// Background location is provisional until the user confirms it.
    public static let backgroundProvisional = PermissionProblem(
        code: .backgroundProvisional, kind: .background,
        message:
            "Background location is allowed for now, but iOS will ask you to confirm it the first time the app uses location in "
            + "the background; choose Change to Always Allow then, or select Always now in Settings › Privacy & Security › "
            + "Location Services.",
        settingsCanFix: true)

    /// Positions are approximate.
    public static let reducedAccuracy = PermissionProblem(
        code: .reducedAccuracy, kind: .foreground,
        message:
            "Precise Location is off for this app: positions are off by up to 20 km, arrive a few times an hour, and places "
            + "cannot be watched; turn on Precise Location in Settings › Privacy & Security › Location Services, under this app.",
        settingsCanFix: true)

    /// Every problem the authorization and records show, most severe first; empty when nothing is
    /// wrong or nothing is known yet (no authorization reported, or location never asked for).
    ///
    /// - `restricted` or `denied` give one problem and nothing else (no position can be taken).
    /// - With location allowed: `reducedAccuracy` when positions are approximate,
    ///   `backgroundProvisional` when Always is provisional, and `backgroundDenied` when background is
    ///   not granted although it was asked for (the background record has a `requestedAt`).
    public static func diagnose(_ authorization: PlatformAuthorization?, permissions: Permissions) -> [PermissionProblem] {
        guard let authorization else { return [] }
        switch authorization.status {
        case .notDetermined: return []
        case .restricted: return [.restricted]
        case .denied: return [authorization.canPrompt ? .foregroundDeniedAskable : .foregroundDenied]
        case .whenInUse, .always:
            var problems: [PermissionProblem] = []
            if authorization.reducedAccuracy { problems.append(.reducedAccuracy) }
            if authorization.provisional {
                problems.append(.backgroundProvisional)
            } else if !authorization.grantsBackground, permissions.background?.requestedAt != nil {
                problems.append(.backgroundDenied)
            }
            return problems
        }
    }
}
