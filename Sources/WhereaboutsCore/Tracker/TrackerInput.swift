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
