import Foundation

/// What the Tracker asks its shell to do. The shell performs effects in order.
public enum TrackerEffect: Sendable, Equatable {
    /// Configure the platform location service.
    case configureLocation(LocationRequest)
    /// Ask the platform for one fix at the given accuracy (CoreLocation `requestLocation`).
    case requestOneShot(LocationAccuracy)
    /// Monitor exactly this set of OS regions (the planned slots), replacing the previous set.
    case monitor([MonitoredRegion])
    /// Append a fix to the store as a new record, recorded for `trigger`. The shell gives it its
    /// identity (a ``LocationRecord``): the Tracker draws no random numbers.
    case record(Fix, trigger: RecordTrigger)
    /// The stay at the last record lasts `dwell` seconds, until `lastSeen`: a fix showed the device
    /// left then, or it is still there (written before an upload and when tracking stops).
    case extendDwell(dwell: TimeInterval, lastSeen: Date)
    /// The stay at the last record ended (a fix showed the device left): its dwell as written is
    /// final, and a relaunched app must not resume it.
    case stayEnded
    /// The last record is better placed by a finer still fix taken during its stay: it keeps its
    /// identity and time, and takes this fix's position, accuracy, altitude, speed, course and source
    /// (the fix given carries the record's own timestamp).
    case placeRecord(Fix)
    /// Report a region transition.
    case emit(RegionEvent)
    /// Remember these regions' states (what a relaunched app restores); each is written with the
    /// events of the same input.
    case saveRegionStates([RegionStateRecord])
    /// Forget every region's state: tracking stopped, so what happens meanwhile is not known.
    case forgetRegionStates
    /// Send pending records now.
    case flushUploads(FlushReason)
}
