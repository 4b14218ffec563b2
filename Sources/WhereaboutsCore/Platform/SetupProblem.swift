import Foundation

/// A part of the app's iOS set-up that is missing (an Info.plist usage string, background mode or
/// task identifier), and the feature Whereabouts turned off because of it instead of letting iOS end
/// the app. The app shows it (``LocationData/setupProblems``, JavaScript's `setupProblems`); a developer
/// fixes it by adding ``key`` to Info.plist.
public struct SetupProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable identifiers of the problems; the raw values are what JavaScript sees.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// `NSMotionUsageDescription` is missing: motion activity is off (iOS ends an app that starts it
        /// without the key); the adaptive modes judge stops from positions alone.
        case motionUsageDescriptionMissing
        /// `NSLocationWhenInUseUsageDescription` is missing: iOS never shows the location dialog, so no
        /// permission is asked for.
        case whenInUseUsageDescriptionMissing
        /// `NSLocationAlwaysAndWhenInUseUsageDescription` is missing: iOS never shows the Always dialog, so
        /// background permission is not asked for.
        case alwaysUsageDescriptionMissing
        /// `UIBackgroundModes` lacks `location`: continuous updates stop when the app leaves the
        /// foreground (setting `allowsBackgroundLocationUpdates` without it ends the app, so it is left off).
        case locationBackgroundModeMissing
        /// The refresh task's identifier is not under `BGTaskSchedulerPermittedIdentifiers` (registering it
        /// would end the app), or `UIBackgroundModes` lacks `fetch`: background refresh is off.
        case refreshTaskNotPermitted
    }

    /// What is missing.
    public let code: Code
    /// The Info.plist key to add.
    public let key: String
    /// What is missing, what Whereabouts turned off and how to fix it, in one or two sentences.
    public let message: String

    /// Creates a problem.
    public init(code: Code, key: String, message: String) {
        self.code = code
        self.key = key
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
