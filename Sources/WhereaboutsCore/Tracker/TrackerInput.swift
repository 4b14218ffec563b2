import Foundation

/// Everything that can happen to the Tracker. Each input is handled with the time it happened at.
public enum TrackerInput: Sendable, Equatable {
    /// A position from the location service.
    case fix(Fix)
    /// A visit report: the device arrived at a place (it has stayed there a few minutes) or left it.
    case visit(Visit)
    /// The motion coprocessor's latest activity.
    case activity(MotionActivity)
    /// The OS reports that the device crossed a monitored region's boundary (or, after monitoring
    /// started, in which state it found the device).
    case regionCrossing(id: String, state: RegionState)
    /// Time has passed and nothing else happened: the shell's wake-up at ``Tracker/nextDeadline``.
    /// Like every input, it first fires the timers that came due.
    case wake
    /// The app's lifecycle changed.
    case lifecycle(AppLifecycle)
    /// The app or a server asked for something.
    case command(TrackerCommand)
}

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

/// Commands from the app (or from a server, relayed by the app).
public enum TrackerCommand: Sendable, Equatable {
    /// Start tracking in the configured mode.
    case start
    /// Stop tracking: location updates off, regions no longer monitored.
    case stop
    /// Change the tracking mode.
    case setMode(TrackingMode)
    /// Take one fix now and record it.
    case requestFix
    /// Track continuously for the given number of seconds, then return to the previous mode.
    case startActiveSession(duration: TimeInterval)
    /// Add regions (replacing any with the same id).
    case addRegions([Region])
    /// Remove regions by id.
    case removeRegions([String])
}
