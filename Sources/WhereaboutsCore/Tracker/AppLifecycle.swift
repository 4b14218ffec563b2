import Foundation

/// App lifecycle transitions the Tracker cares about.
public enum AppLifecycle: String, Sendable, Equatable {
    /// The OS launched the app in the background (region crossing, significant change, relaunch).
    case launchedByOS
    /// The app came to the foreground.
    case foreground
    /// The app went to the background.
    case background
    /// The user allowed location (answering a dialog, or in Settings) while tracking was on: the
    /// location services are configured again and a fix is asked for.
    case locationAllowed
}
