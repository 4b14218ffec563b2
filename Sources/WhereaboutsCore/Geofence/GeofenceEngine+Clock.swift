import Foundation

extension GeofenceEngine {
    /// Follows a clock set back (``Tracker/followClock(to:into:)``): moves by `offset` seconds the entry
    /// times of the regions the device is inside, the latest fix and the crossings fixes reported
    /// (``FixCrossingLog/shiftTimes(by:)``). A dwell then still waits what it had left, and an OS report
    /// is the echo of a fix's crossing, or yields to the latest fix, only for as long as it would have
    /// without the jump. The regions inside count as changed, so a store learns their moved entry times
    /// (``takeStateChanges(at:)``).
    mutating func shiftTimes(by offset: TimeInterval) {
        for position in inside.indices {
            inside[position].since += offset
            changedSlots.append(inside[position].slot)
        }
        latestFix?.timestamp.addTimeInterval(offset)
        fixCrossings.shiftTimes(by: offset)
    }
}
