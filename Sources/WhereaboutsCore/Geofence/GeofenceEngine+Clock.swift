import Foundation

extension GeofenceEngine {
    /// Follows a clock set back (``Tracker/followClock(to:into:)``): moves by `offset` seconds the entry
    /// times of the regions the device is inside, so a dwell still waits what it had left. The regions
    /// inside count as changed, so a store learns their moved entry times (``takeStateChanges(at:)``).
    mutating func shiftTimes(by offset: TimeInterval) {
        for position in inside.indices {
            inside[position].since += offset
            changedSlots.append(inside[position].slot)
        }
    }
}
