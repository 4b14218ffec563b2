import Foundation

/// The platform's answer to "may this app have positions", in platform-neutral terms. Adapters map
/// the OS's values onto it (CoreLocation through
/// ``PlatformAuthorization/init(coreLocationStatus:accuracyAuthorization:provisional:alwaysPromptUsed:)``);
/// receivers without a permission model (gpsd, the simulator) report ``unrestricted``.
public struct PlatformAuthorization: Sendable, Hashable, Codable {
    /// The authorization level.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user has not been asked yet.
        case notDetermined
        /// A policy (parental controls, device management) forbids location; the user cannot change it.
        case restricted
        /// The user refused, or turned location services off.
        case denied
        /// Positions while the app is in use (iOS When In Use).
        case whenInUse
        /// Positions at any time (iOS Always).
        case always
    }

    /// The authorization level.
    public var status: Status
    /// `true` when the user allowed only approximate positions (iOS reduced accuracy): fixes off by
    /// kilometres, a few an hour, and no region monitoring.
    public var reducedAccuracy: Bool
    /// `true` when Always is provisional: the app asked for Always, the user chose While Using, and
    /// the OS will ask the user again the first time the app uses location in the background.
    public var provisional: Bool
    /// `false` when the OS will not show its permission dialog again, so only the Settings app can
    /// change the answer.
    public var canPrompt: Bool

    /// Creates an authorization.
    public init(status: Status, reducedAccuracy: Bool = false, provisional: Bool = false, canPrompt: Bool? = nil) {
        self.status = status
        self.reducedAccuracy = reducedAccuracy
        self.provisional = provisional
        self.canPrompt = canPrompt ?? (status == .notDetermined || status == .whenInUse)
    }

    /// A receiver that needs no permission (gpsd on Linux, the simulated phone).
    public static let unrestricted = PlatformAuthorization(status: .always, canPrompt: false)

    /// Whether positions may be taken while the app is in use.
    public var grantsForeground: Bool { status == .whenInUse || status == .always }
    /// Whether positions may be taken while the app is in the background.
    public var grantsBackground: Bool { status == .always }
    /// Whether the OS reports region crossings whatever the app is doing: Always at full accuracy.
    /// Under When In Use it delivers them only while the app is in use, and under reduced accuracy
    /// not at all.
    public var monitorsRegions: Bool { status == .always && !reducedAccuracy }
}
