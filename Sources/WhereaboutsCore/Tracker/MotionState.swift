import Foundation

/// Whether the stop-detecting modes consider the device moving or still.
public enum MotionState: Sendable, Equatable {
    /// Moving: positions flow. `anchor` is the fix the device has stayed near since its time.
    case moving(anchor: Fix?)
    /// Still at `anchor`: positioning is off until the stationary fence or a significant change wakes it.
    case stationary(anchor: Fix)
}
